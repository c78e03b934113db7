import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.NamespaceDescriptor;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.BalanceRequest;
import org.apache.hadoop.hbase.client.CompactionState;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.SnapshotDescription;

/**
 * The HBase Admin client of scripts/hbase-local, compiled once by servers/hbase_tool.py and run on
 * the server classpath as {@code java HBaseTool <command> <zk port> <tmp dir> <args>}:
 * <ul>
 * <li>{@code probe <seconds> <region servers>}: readiness. Connects through ZooKeeper, lists the
 * namespaces and the live region servers, retrying until at least that many are live or the time
 * is up; prints each server with its regions per user table, e.g.
 * {@code 127.0.0.1:16020(t1=21,t2=22)}. An open port is not enough: ZooKeeper listens long before
 * the master has assigned hbase:meta and hbase:namespace. Exit 1 when not ready (prints the last
 * error).
 * <li>{@code compact <table> <seconds>}: the same on-disk state for every trial. Flushes the
 * table's memstores, starts a major compaction and waits until the region servers report none
 * running. Exit 1 when the table does not exist, 2 when not finished in time.
 * <li>{@code save <name>} / {@code restore <name>}: trials on a running HBase from the same data.
 * save: one snapshot of every user table, named {@code <name>-<table>} (replacing an older one);
 * restore: each table of those snapshots disabled, restored to its snapshot (HBase's own
 * restore_snapshot) and enabled. Exit 1 when there is no user table (save) or no snapshot
 * (restore).
 * <li>{@code balance <seconds>}: every live region server holding a user region again. A region
 * server restarted after a crash holds none until the balancer moves some back (its period is
 * 5 minutes), so a fault of it would touch no client operation. Switches the balancer on and
 * runs it until no live server is empty; prints the layout as probe does. Exit 2 when one still
 * is empty after that time.
 * </ul>
 */
public class HBaseTool {
  public static void main(String[] args) throws Exception {
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", "127.0.0.1");
    conf.setInt("hbase.zookeeper.property.clientPort", Integer.parseInt(args[1]));
    conf.set("hbase.tmp.dir", args[2]);
    switch (args[0]) {
      case "probe" -> probe(conf, Long.parseLong(args[3]), Integer.parseInt(args[4]));
      case "compact" -> compact(conf, TableName.valueOf(args[3]), Long.parseLong(args[4]));
      case "save", "restore" -> snapshots(conf, args[0].equals("save"), args[3] + "-");
      case "balance" -> balance(conf, Long.parseLong(args[3]));
      default -> {
        System.out.println("unknown command " + args[0]
            + ": probe, compact, save, restore or balance");
        System.exit(64);
      }
    }
    System.exit(0);
  }

  private static void probe(Configuration conf, long seconds, int servers) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    // fail each attempt within seconds; the loop below does the waiting
    conf.setInt("hbase.client.retries.number", 2);
    conf.setInt("hbase.client.pause", 200);
    conf.setInt("hbase.rpc.timeout", 5000);
    conf.setInt("hbase.client.operation.timeout", 8000);
    conf.setInt("zookeeper.recovery.retry", 1);
    conf.setInt("zookeeper.session.timeout", 10000);
    String last = "no attempt made";
    while (System.nanoTime() < deadline) {
      try (Connection connection = ConnectionFactory.createConnection(conf);
           Admin admin = connection.getAdmin()) {
        StringBuilder names = new StringBuilder();
        for (NamespaceDescriptor ns : admin.listNamespaceDescriptors()) {
          names.append(names.length() == 0 ? "" : ",").append(ns.getName());
        }
        List<String> live = new ArrayList<>();
        for (ServerName sn : admin.getRegionServers()) {
          live.add(sn.getAddress().toString() + regionsOf(admin, sn));
        }
        Collections.sort(live);
        if (live.size() >= servers) {
          System.out.println("namespaces: " + names + "; " + live.size() + " live region "
              + "server(s): " + String.join(" ", live));
          return;
        }
        last = live.size() + " of " + servers + " region servers live: " + String.join(" ", live);
      } catch (Exception e) {
        last = e.getClass().getSimpleName() + ": " + String.valueOf(e.getMessage()).split("\n")[0];
      }
      Thread.sleep(500);
    }
    System.out.println("not ready: " + last);
    System.exit(1);
  }

  /** "(t1=21,t2=22)": the server's regions per user table, "" when it has none. */
  private static String regionsOf(Admin admin, ServerName server) throws Exception {
    Map<String, Integer> perTable = new TreeMap<>();
    for (RegionInfo region : admin.getRegions(server)) {
      if (!region.getTable().isSystemTable()) {
        perTable.merge(region.getTable().getNameAsString(), 1, Integer::sum);
      }
    }
    StringBuilder out = new StringBuilder();
    perTable.forEach((t, n) -> out.append(out.length() == 0 ? "(" : ",").append(t).append('=')
        .append(n));
    return out.length() == 0 ? "" : out.append(')').toString();
  }

  private static void balance(Configuration conf, long seconds) throws Exception {
    long t0 = System.nanoTime();
    long deadline = t0 + TimeUnit.SECONDS.toNanos(seconds);
    try (Connection connection = ConnectionFactory.createConnection(conf);
         Admin admin = connection.getAdmin()) {
      admin.balancerSwitch(true, true);
      long moved = 0;
      while (true) {
        List<String> live = new ArrayList<>();
        List<String> empty = new ArrayList<>();
        for (ServerName sn : admin.getRegionServers()) {
          String regions = regionsOf(admin, sn);
          live.add(sn.getAddress().toString() + regions);
          if (regions.isEmpty()) {
            empty.add(sn.getAddress().toString());
          }
        }
        Collections.sort(live);
        if (empty.isEmpty()) {
          System.out.printf("balanced in %.1f s, %d region(s) moved; %d live region server(s): "
              + "%s%n", (System.nanoTime() - t0) / 1e9, moved, live.size(), String.join(" ", live));
          return;
        }
        if (System.nanoTime() > deadline) {
          System.out.println("region server(s) " + String.join(", ", empty) + " still hold no "
              + "user region after " + seconds + " s: " + String.join(" ", live));
          System.exit(2);
        }
        // (the balancer does not run while regions are in transition: the next round retries)
        moved += admin.balance(BalanceRequest.defaultInstance()).getMovesExecuted();
        Thread.sleep(1000);
      }
    }
  }

  private static void compact(Configuration conf, TableName table, long seconds)
      throws Exception {
    long t0 = System.nanoTime();
    long deadline = t0 + TimeUnit.SECONDS.toNanos(seconds);
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
              + seconds + " s");
          System.exit(2);
        }
        Thread.sleep(250);
      }
      System.out.printf("flushed and major-compacted %s in %.1f s%n", table,
          (System.nanoTime() - t0) / 1e9);
    }
  }

  private static void snapshots(Configuration conf, boolean save, String prefix)
      throws Exception {
    try (Connection connection = ConnectionFactory.createConnection(conf);
         Admin admin = connection.getAdmin()) {
      List<String> done = new ArrayList<>();
      if (save) {
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
        System.out.println(save ? "no user table to snapshot"
            : "no snapshot named " + prefix + "<table> to restore");
        System.exit(1);
      }
      done.forEach(System.out::println);
    }
  }
}
