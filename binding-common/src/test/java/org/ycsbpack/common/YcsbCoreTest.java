package org.ycsbpack.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import site.ycsb.measurements.Measurements;
import site.ycsb.workloads.CoreWorkload;

/** Runs on YCSB core 0.17.0 (the build's core); the drop-in tests run it on master's core. */
class YcsbCoreTest {
  /** Reaches 0.17.0's protected instance buildKeyName(long), the method master replaced. */
  private static final class Core017 extends CoreWorkload {
    String key(long keynum) {
      return buildKeyName(keynum);
    }
  }

  private static Core017 core(String insertorder, int zeropadding) throws Exception {
    Properties p = new Properties();
    p.setProperty("insertorder", insertorder);
    p.setProperty("zeropadding", String.valueOf(zeropadding));
    p.setProperty("recordcount", "1000");
    Measurements.setProperties(p);
    Core017 w = new Core017();
    w.init(p);
    return w;
  }

  @Test
  void keyNamesAreCoreWorkloadsForHashedAndOrderedKeysWithAndWithoutPadding() throws Exception {
    for (String order : new String[] {"hashed", "ordered"}) {
      for (int pad : new int[] {1, 12, 25}) {
        Core017 w = core(order, pad);
        for (long k : new long[] {0, 1, 9, 10, 999, 123456789L, Long.MAX_VALUE}) {
          assertEquals(w.key(k), YcsbCore.keyName(k, pad, "ordered".equals(order)),
              order + " key " + k + " padded to " + pad);
        }
      }
    }
    assertEquals("user0000000042", YcsbCore.keyName(42, 10, true));
  }

  @Test
  void theCoreVersionIsReadFromCoresOwnJar() {
    assertEquals("0.17.0", YcsbCore.version());
  }

  @Test
  void core017HasEverythingTheWorkloadsUse() throws Exception {
    assertEquals(List.of(), YcsbCore.missingCoreWorkloadMembers(CoreWorkload.class));
    YcsbCore.check("BatchedWorkload", true);
  }

  @Test
  void aClassWithoutCoreWorkloadsMembersIsNamedMemberByMember() {
    List<String> missing = YcsbCore.missingCoreWorkloadMembers(Object.class);
    assertTrue(missing.contains("CoreWorkload.transactioninsertkeysequence"), missing.toString());
    assertTrue(missing.contains("CoreWorkload.doTransactionRead()"), missing.toString());
    assertEquals(19, missing.size(), missing.toString());
  }

  @Test
  void withoutTargetThereIsNoIntendedStartTime() {
    Measurements.setProperties(new Properties());
    assertEquals(0L, YcsbCore.intendedStartTimeNs(Measurements.getMeasurements()));
  }
}
