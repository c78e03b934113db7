package org.ycsbpack.hbase;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
    List<String> args = new ArrayList<>(Arrays.asList(LocalHBase.ycsbArgs()));
    args.addAll(Arrays.asList("-p", "table=it_dropin_ycsb", "-p", "hbase.createtable=true",
        "-p", "listappend.table=it_dropin_lists"));
    YcsbDropIn.installAndRunEverywhere(tmp, "hbase-salted", "hbase",
        args.toArray(new String[0]));
  }
}
