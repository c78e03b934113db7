import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.NamespaceDescriptor;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/**
 * Readiness probe of scripts/hbase-local, run as {@code java HBaseProbe.java <zk port>
 * <seconds> <tmp dir>} on the server classpath: a real client that connects through ZooKeeper
 * and lists namespaces, retrying until it succeeds or the time is up. An open port is not
 * enough: ZooKeeper listens long before the master has assigned hbase:meta and hbase:namespace.
 * Exit status 0 when ready (prints the namespaces), 1 when not (prints the last error).
 */
public class HBaseProbe {
  public static void main(String[] args) throws Exception {
    int zkPort = Integer.parseInt(args[0]);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Long.parseLong(args[1]));
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
        System.out.println("namespaces: " + names);
        System.exit(0);
      } catch (Exception e) {
        last = e.getClass().getSimpleName() + ": " + String.valueOf(e.getMessage()).split("\n")[0];
        Thread.sleep(500);
      }
    }
    System.out.println("not ready: " + last);
    System.exit(1);
  }
}
