package org.ycsbpack.jdbc;

import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;
import org.ycsbpack.common.DeclaredProperties;
import org.ycsbpack.common.ReadmePropertyTables;

class ReadmePropertyTableTest {
  @Test
  void theBindingReadmeTableListsEveryPropertyWithItsDefault() throws Exception {
    assertNull(ReadmePropertyTables.mismatch(
        ReadmePropertyTables.repoRoot().resolve("jdbc-binding/README.md"), "jdbc",
        JdbcProperties.ALL));
  }

  @Test
  void theAllListHoldsEveryDeclaredProperty() {
    assertNull(DeclaredProperties.mismatch(JdbcProperties.ALL, JdbcProperties.class));
  }
}
