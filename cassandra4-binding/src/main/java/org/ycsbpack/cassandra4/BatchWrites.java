package org.ycsbpack.cassandra4;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchStatementBuilder;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import java.util.ArrayList;
import java.util.List;
import org.ycsbpack.common.ErrorLog;
import org.ycsbpack.common.batch.BatchResult;
import site.ycsb.Status;

/**
 * Sends the write statements of one batch (rows or list appends) in the mode of
 * {@code cassandra.batchwrite}: one BATCH statement, which succeeds or fails as a whole as far as
 * the client can tell, or concurrent single statements, each counted on its own.
 */
final class BatchWrites {
  private BatchWrites() {
  }

  static BatchResult execute(CqlSession session, BatchWriteMode mode, ConsistencyLevel cl,
                             List<BoundStatement> statements, List<String> keys,
                             String operation, ErrorLog errors) {
    if (mode == BatchWriteMode.ASYNC) {
      List<BoundStatement> writes = new ArrayList<>(statements.size());
      for (BoundStatement s : statements) {
        writes.add(s.setConsistencyLevel(cl));
      }
      return ConcurrentRequests.execute(session, writes, keys, operation, errors,
          ConcurrentRequests.WRITTEN);
    }
    BatchStatementBuilder batch = BatchStatement.builder(mode.batchType());
    for (BoundStatement s : statements) {
      batch.addStatement(s);
    }
    try {
      session.execute(batch.setConsistencyLevel(cl).build());
      return BatchResult.of(keys.size(), 0, 0, null);
    } catch (RuntimeException e) {
      Status s = errors.failed(DriverErrors.statusOf(e), operation, keys.get(0) + "...", e);
      return BatchResult.allFailed(keys.size(), s);
    }
  }
}
