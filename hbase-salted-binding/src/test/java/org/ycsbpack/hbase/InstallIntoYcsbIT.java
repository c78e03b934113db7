package org.ycsbpack.hbase;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ycsbpack.common.testing.YcsbDropIn;

/**
 * scripts/install-into-ycsb on YCSB's real source tree (master, from the archive beside the
 * project) and a release tree made from it, against the real test HBase.
 */
class InstallIntoYcsbIT {
  /** Both of YCSB's launchers load and run CoreWorkload, BatchedWorkload and ListAppendWorkload. */
  @Test
  void realYcsbSourceAndReleaseTreesRunEveryWorkloadThroughBothLaunchers(@TempDir Path tmp)
      throws Exception {
    String[] connection = LocalHBase.ycsbArgs();
    YcsbDropIn.installAndRunEverywhere(tmp, "hbase-salted", "hbase", connection[0], connection[1],
        connection[2], connection[3], "-p", "table=it_dropin_ycsb", "-p", "hbase.createtable=true",
        "-p", "listappend.table=it_dropin_lists");
  }
}
