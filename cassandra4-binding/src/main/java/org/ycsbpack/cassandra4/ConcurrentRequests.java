package org.ycsbpack.cassandra4;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import org.ycsbpack.common.ErrorLog;
import org.ycsbpack.common.batch.BatchResult;
import site.ycsb.Status;

/**
 * The "async" batch mode: a batch's statements sent at once, each awaited and counted on its
 * own, so one failed record does not hide the others.
 */
final class ConcurrentRequests {
  /** What a successful response means for its record: done/found (true) or missing (false). */
  interface Outcome {
    boolean found(int index, AsyncResultSet response);
  }

  /** Every response counts as done: writes. */
  static final Outcome WRITTEN = (i, r) -> true;

  private ConcurrentRequests() {
  }

  static BatchResult execute(CqlSession session, List<BoundStatement> statements,
                             List<String> keys, String operation, ErrorLog errors,
                             Outcome outcome) {
    List<CompletionStage<AsyncResultSet>> pending = new ArrayList<>(statements.size());
    for (BoundStatement s : statements) {
      pending.add(session.executeAsync(s));
    }
    int ok = 0;
    int missing = 0;
    List<String> failed = new ArrayList<>();
    Status firstError = null;
    for (int i = 0; i < pending.size(); i++) {
      try {
        if (outcome.found(i, await(pending.get(i)))) {
          ok++;
        } else {
          missing++;
        }
      } catch (RuntimeException e) {
        failed.add(keys.get(i));
        Status s = errors.failed(DriverErrors.statusOf(e), operation, keys.get(i), e);
        firstError = firstError == null ? s : firstError;
      }
    }
    return BatchResult.ofRows(ok, missing, failed, firstError);
  }

  private static AsyncResultSet await(CompletionStage<AsyncResultSet> stage) {
    try {
      return stage.toCompletableFuture().join();
    } catch (CompletionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      throw cause instanceof RuntimeException ? (RuntimeException) cause : e;
    }
  }
}
