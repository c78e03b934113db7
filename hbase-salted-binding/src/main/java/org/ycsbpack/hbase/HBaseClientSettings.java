package org.ycsbpack.hbase;

import java.util.HashSet;
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

  private HBaseClientSettings() {
  }

  /** A YCSB property passed to the HBase client as it is: hbase.* or zookeeper.*, not ours. */
  static boolean isClientSetting(String name) {
    return (name.startsWith("hbase.") || name.startsWith("zookeeper."))
        && !BINDING_PROPERTY_NAMES.contains(name);
  }
}
