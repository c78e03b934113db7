package org.ycsbpack.jdbc;

import org.ycsbpack.common.launch.ProbeMain;

/**
 * {@code bin/ycsb servers jdbc}: what the MariaDB or MySQL server runs, read with the binding's
 * own properties ({@link JdbcServers}); -watch prints these facts only.
 */
public final class ServerProbe {
  private ServerProbe() {
  }

  public static void main(String[] args) throws Exception {
    ProbeMain.run(JdbcProperties.BINDING, args, JdbcServers::open);
  }
}
