package org.ycsbpack.cassandra4;

import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;
import org.ycsbpack.common.ClassReferences;
import org.ycsbpack.common.ReadmePropertyTables;

class ClassLayersTest {
  @Test
  void noMainClassReachesBackUpToAClassThatReachesIt() {
    assertNull(ClassReferences.circlesMessage(
        ReadmePropertyTables.repoRoot().resolve("cassandra4-binding/src/main/java")));
  }
}
