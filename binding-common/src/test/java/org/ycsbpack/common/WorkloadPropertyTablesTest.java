package org.ycsbpack.common;

import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;
import org.ycsbpack.common.batch.BatchedWorkloadProperties;
import org.ycsbpack.common.listappend.ListAppendProperties;

class WorkloadPropertyTablesTest {
  @Test
  void readmeListsEveryBatchedWorkloadProperty() throws Exception {
    assertNull(ReadmePropertyTables.mismatch("batched-workload", BatchedWorkloadProperties.ALL));
  }

  @Test
  void readmeListsEveryListAppendWorkloadProperty() throws Exception {
    assertNull(ReadmePropertyTables.mismatch("listappend-workload", ListAppendProperties.ALL));
  }
}
