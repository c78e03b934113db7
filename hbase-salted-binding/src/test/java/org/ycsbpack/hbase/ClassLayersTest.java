package org.ycsbpack.hbase;

import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;
import org.ycsbpack.common.ClassReferences;
import org.ycsbpack.common.ReadmePropertyTables;

class ClassLayersTest {
  @Test
  void noMainClassReachesBackUpToAClassThatReachesIt() {
    assertNull(ClassReferences.circlesMessage(
        ReadmePropertyTables.repoRoot().resolve("hbase-salted-binding/src/main/java")));
  }
}
