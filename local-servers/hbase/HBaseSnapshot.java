import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.SnapshotDescription;

/**
 * Trials on a running HBase from the same data (scripts/hbase-local snapshot|restore), run as
 * {@code java HBaseSnapshot.java save|restore <zk port> <name> <tmp dir>} on the server
 * classpath. save: one snapshot of every user table, named {@code <name>-<table>} (replacing an
 * older one of that name); restore: each table of those snapshots disabled, restored to its
 * snapshot and enabled again (HBase's own restore_snapshot). Prints one line per table with the
 * seconds it took; exit status 1 when there is no user table (save) or no snapshot (restore).
 */
public class HBaseSnapshot {
  public static void main(String[] args) throws Exception {
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", "127.0.0.1");
    conf.setInt("hbase.zookeeper.property.clientPort", Integer.parseInt(args[1]));
    conf.set("hbase.tmp.dir", args[3]);
    String prefix = args[2] + "-";
    try (Connection connection = ConnectionFactory.createConnection(conf);
         Admin admin = connection.getAdmin()) {
      List<String> done = new ArrayList<>();
      if (args[0].equals("save")) {
        for (TableName table : admin.listTableNames()) {
          long t0 = System.nanoTime();
          String name = prefix + table.getNameAsString().replace(':', '_');
          for (SnapshotDescription old : admin.listSnapshots()) {
            if (old.getName().equals(name)) {
              admin.deleteSnapshot(name);
            }
          }
          admin.snapshot(name, table);
          done.add(String.format("snapshot %s of %s in %.1f s", name, table,
              (System.nanoTime() - t0) / 1e9));
        }
      } else {
        for (SnapshotDescription snapshot : admin.listSnapshots()) {
          if (!snapshot.getName().startsWith(prefix)) {
            continue;
          }
          long t0 = System.nanoTime();
          TableName table = snapshot.getTableName();
          if (admin.isTableEnabled(table)) {
            admin.disableTable(table);
          }
          admin.restoreSnapshot(snapshot.getName());
          admin.enableTable(table);
          done.add(String.format("restored %s from %s in %.1f s", table, snapshot.getName(),
              (System.nanoTime() - t0) / 1e9));
        }
      }
      if (done.isEmpty()) {
        System.out.println(args[0].equals("save") ? "no user table to snapshot"
            : "no snapshot named " + prefix + "<table> to restore");
        System.exit(1);
      }
      done.forEach(System.out::println);
    }
    System.exit(0);
  }
}
