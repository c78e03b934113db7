import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.hbase.NamespaceDescriptor;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.RegionInfo;

/**
 * Readiness probe of scripts/hbase-local, run as {@code java HBaseProbe.java <zk port>
 * <seconds> <tmp dir> [region servers]} on the server classpath: a real client that connects
 * through ZooKeeper, lists namespaces and the live region servers, retrying until it succeeds
 * with at least that many region servers (default 1) or the time is up; each server is printed
 * with its regions per user table, e.g. {@code 127.0.0.1:16020(t1=21,t2=22)}. An open port is not
 * enough: ZooKeeper listens long before the master has assigned hbase:meta and hbase:namespace.
 * Exit status 0 when ready (prints the namespaces and the region servers), 1 when not (prints
 * the last error).
 */
public class HBaseProbe {
  public static void main(String[] args) throws Exception {
    int zkPort = Integer.parseInt(args[0]);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Long.parseLong(args[1]));
    int servers = args.length > 3 ? Integer.parseInt(args[3]) : 1;
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", "127.0.0.1");
    conf.setInt("hbase.zookeeper.property.clientPort", zkPort);
    conf.set("hbase.tmp.dir", args[2]);
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
          System.exit(0);
        }
        last = live.size() + " of " + servers + " region servers live: " + String.join(" ", live);
        Thread.sleep(500);
      } catch (Exception e) {
        last = e.getClass().getSimpleName() + ": " + String.valueOf(e.getMessage()).split("\n")[0];
        Thread.sleep(500);
      }
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
}
