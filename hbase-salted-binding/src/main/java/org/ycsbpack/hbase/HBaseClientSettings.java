package org.ycsbpack.hbase;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.ycsbpack.common.BindingProperty;

/**
 * Which YCSB properties are handed to the HBase client as they are: every {@code hbase.*} and
 * {@code zookeeper.*} name that is not a binding property, so any client setting can be given
 * with {@code -p}. They decide the Connection too (see {@code HBaseSettings.connectionKey}).
 */
final class HBaseClientSettings {
  /** Binding properties, which the binding applies itself (some are HBase settings too). */
  static final Set<String> BINDING_PROPERTY_NAMES = new HashSet<>();

  static {
    for (BindingProperty p : HBaseProperties.ALL) {
      BINDING_PROPERTY_NAMES.add(p.name());
    }
  }

  /**
   * HBase client settings whose default this binding replaces; an hbase-site.xml on the
   * classpath or a {@code -p} of the same name still wins. The RPC client: HBase 2's default,
   * NettyRpcClient, hands every call to an event-loop thread that writes it and wakes the caller
   * with the answer; BlockingRpcClient (HBase 1's default, still shipped and supported) writes
   * from the calling thread and only the answer changes threads. For YCSB's synchronous calls
   * that is one thread hand-off less per operation (scripts/bench-binding measures it; README
   * "Binding efficiency").
   */
  static final Map<String, String> DEFAULTS = Map.of(
      "hbase.rpc.client.impl", "org.apache.hadoop.hbase.ipc.BlockingRpcClient");

  private HBaseClientSettings() {
  }

  /** A YCSB property passed to the HBase client as it is: hbase.* or zookeeper.*, not ours. */
  static boolean isClientSetting(String name) {
    return (name.startsWith("hbase.") || name.startsWith("zookeeper."))
        && !BINDING_PROPERTY_NAMES.contains(name);
  }
}
