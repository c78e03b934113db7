package org.ycsbpack.hbase;

import org.ycsbpack.common.launch.ProbeMain;

/**
 * {@code bin/ycsb servers hbase-salted}: what the HBase master and region servers run and do,
 * read with the binding's own properties ({@link HBaseServers}); under -watch, the rounds from
 * a JVM that never opens an HBase connection ({@link HBaseWatch}).
 */
public final class ServerProbe {
  private ServerProbe() {
  }

  public static void main(String[] args) throws Exception {
    ProbeMain.run(HBaseProperties.BINDING, args, HBaseServers::open,
        (props, watchArgs) -> HBaseWatch.open(ServerProbe.class, watchArgs));
  }
}
