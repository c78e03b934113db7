package org.ycsbpack.common;

import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.ycsbpack.common.batch.BatchedWorkloadProperties;
import org.ycsbpack.common.listappend.ListAppendProperties;

/** The workloads' property tables live on the docs page of the workloads, docs/workloads.md. */
class WorkloadPropertyTablesTest {
  private static final Path PAGE = ReadmePropertyTables.repoRoot().resolve("docs/workloads.md");

  @Test
  void docsListEveryBatchedWorkloadProperty() throws Exception {
    assertNull(ReadmePropertyTables.mismatch(PAGE, "batched-workload",
        BatchedWorkloadProperties.ALL));
  }

  @Test
  void docsListEveryListAppendWorkloadProperty() throws Exception {
    assertNull(ReadmePropertyTables.mismatch(PAGE, "listappend-workload",
        ListAppendProperties.ALL));
  }

  @Test
  void theWorkloadsAllListsHoldEveryDeclaredProperty() {
    assertNull(DeclaredProperties.mismatch(BatchedWorkloadProperties.ALL,
        BatchedWorkloadProperties.class));
    assertNull(DeclaredProperties.mismatch(ListAppendProperties.ALL, ListAppendProperties.class));
  }
}
