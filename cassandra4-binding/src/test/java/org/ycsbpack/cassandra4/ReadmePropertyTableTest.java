package org.ycsbpack.cassandra4;

import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;
import org.ycsbpack.common.DeclaredProperties;
import org.ycsbpack.common.ReadmePropertyTables;

class ReadmePropertyTableTest {
  @Test
  void theBindingReadmeTableListsEveryPropertyWithItsDefault() throws Exception {
    assertNull(ReadmePropertyTables.mismatch(
        ReadmePropertyTables.repoRoot().resolve("cassandra4-binding/README.md"), "cassandra4",
        CassandraProperties.ALL));
  }

  @Test
  void theAllListHoldsEveryDeclaredProperty() {
    assertNull(DeclaredProperties.mismatch(CassandraProperties.ALL, CassandraProperties.class));
  }
}
