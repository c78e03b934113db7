package org.ycsbpack.cassandra4;

import org.ycsbpack.common.launch.ProbeMain;

/**
 * {@code bin/ycsb servers cassandra4}: what the Cassandra nodes run and do, read with the
 * binding's own properties ({@link CassandraServers}).
 */
public final class ServerProbe {
  private ServerProbe() {
  }

  public static void main(String[] args) throws Exception {
    ProbeMain.run(CassandraProperties.BINDING, args, CassandraServers::open);
  }
}
