package org.ycsbpack.hbase;

import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;
import org.ycsbpack.common.DeclaredProperties;
import org.ycsbpack.common.ReadmePropertyTables;

class ReadmePropertyTableTest {
  @Test
  void theBindingReadmeTableListsEveryPropertyWithItsDefault() throws Exception {
    assertNull(ReadmePropertyTables.mismatch(
        ReadmePropertyTables.repoRoot().resolve("hbase-salted-binding/README.md"), "hbase-salted",
        HBaseProperties.ALL));
  }

  @Test
  void theAllListHoldsEveryDeclaredProperty() {
    assertNull(DeclaredProperties.mismatch(HBaseProperties.ALL, HBaseProperties.class));
  }
}
