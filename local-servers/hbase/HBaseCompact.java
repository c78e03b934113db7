import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.CompactionState;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/**
 * The same on-disk state for every trial (scripts/hbase-local compact), run as {@code java
 * HBaseCompact.java <zk port> <table> <seconds> <tmp dir>} on the server classpath: flushes the
 * table's memstores to store files, starts a major compaction and waits until the region
 * servers report no compaction running. After a load, each trial then reads one store file per
 * region instead of whatever the flushes of that load happened to leave. Exit status 0 when
 * compacted (prints the seconds it took), 1 when the table does not exist, 2 when the
 * compaction had not finished in time.
 */
public class HBaseCompact {
  public static void main(String[] args) throws Exception {
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", "127.0.0.1");
    conf.setInt("hbase.zookeeper.property.clientPort", Integer.parseInt(args[0]));
    conf.set("hbase.tmp.dir", args[3]);
    TableName table = TableName.valueOf(args[1]);
    long t0 = System.nanoTime();
    long deadline = t0 + TimeUnit.SECONDS.toNanos(Long.parseLong(args[2]));
    try (Connection connection = ConnectionFactory.createConnection(conf);
         Admin admin = connection.getAdmin()) {
      if (!admin.tableExists(table)) {
        System.out.println("table " + table + " does not exist");
        System.exit(1);
      }
      admin.flush(table);
      admin.majorCompact(table);
      // the request is queued: wait until it has started (or finished) and then until it is done
      Thread.sleep(500);
      while (admin.getCompactionState(table) != CompactionState.NONE) {
        if (System.nanoTime() > deadline) {
          System.out.println("major compaction of " + table + " still running after "
              + args[2] + " s");
          System.exit(2);
        }
        Thread.sleep(250);
      }
      System.out.printf("flushed and major-compacted %s in %.1f s%n", table,
          (System.nanoTime() - t0) / 1e9);
    }
    System.exit(0);
  }
}
