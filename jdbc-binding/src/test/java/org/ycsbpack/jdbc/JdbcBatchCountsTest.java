package org.ycsbpack.jdbc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.sql.BatchUpdateException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/** How a JDBC batch's update counts become per-record outcomes {ok, missing, failed}. */
class JdbcBatchCountsTest {
  @Test
  void eachRowsCountDecidesAndRowsWithoutACountFailed() {
    int[] counts = {1, Statement.SUCCESS_NO_INFO, 0, Statement.EXECUTE_FAILED};
    assertArrayEquals(new int[] {2, 1, 2}, JdbcBatches.counts(counts, 5, null),
        "the fifth row has no count: the batch stopped before it");
  }

  @Test
  void anExceptionWithOnlySuccessfulCountsFailsTheWholeBatch() {
    assertArrayEquals(new int[] {0, 0, 3}, JdbcBatches.counts(new int[] {1, 1, 1}, 3,
        new BatchUpdateException()));
    assertArrayEquals(new int[] {0, 0, 2}, JdbcBatches.counts(null, 2,
        new BatchUpdateException()));
  }
}
