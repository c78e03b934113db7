package org.ycsbpack.hbase;

import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.hbase.CallQueueTooBigException;
import org.apache.hadoop.hbase.MasterNotRunningException;
import org.apache.hadoop.hbase.NotServingRegionException;
import org.apache.hadoop.hbase.RegionTooBusyException;
import org.apache.hadoop.hbase.TableNotEnabledException;
import org.apache.hadoop.hbase.TableNotFoundException;
import org.apache.hadoop.hbase.client.OperationTimeoutExceededException;
import org.apache.hadoop.hbase.client.RegionOfflineException;
import org.apache.hadoop.hbase.client.RetriesExhaustedException;
import org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException;
import org.apache.hadoop.hbase.exceptions.ConnectionClosedException;
import org.apache.hadoop.hbase.exceptions.TimeoutIOException;
import org.apache.hadoop.hbase.ipc.CallTimeoutException;
import org.apache.hadoop.hbase.ipc.FailedServerException;
import org.apache.hadoop.hbase.ipc.ServerNotRunningYetException;
import org.apache.hadoop.hbase.quotas.RpcThrottlingException;
import org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException;
import org.apache.hadoop.hbase.regionserver.RegionServerStoppedException;
import org.apache.hadoop.hbase.security.AccessDeniedException;
import site.ycsb.Status;

/**
 * Maps hbase-client failures to distinct YCSB statuses, so {@code Return=} lines tell a missing
 * table from an unavailable region, a timeout or plain exhausted retries. The client wraps the
 * real cause (a multi-get or a BufferedMutator flush in RetriesExhaustedWithDetailsException, a
 * single call in RetriesExhaustedException), so the whole cause chain is searched and the most
 * specific cause wins.
 */
final class HBaseErrors {
  static final Status TABLE_NOT_FOUND = new Status("TABLE_NOT_FOUND",
      "The table does not exist.");
  static final Status NO_SUCH_FAMILY = new Status("NO_SUCH_FAMILY",
      "The table has no such column family.");
  static final Status TABLE_DISABLED = new Status("TABLE_DISABLED", "The table is disabled.");
  static final Status REGION_UNAVAILABLE = new Status("REGION_UNAVAILABLE",
      "The region is not served (moving, splitting, offline).");
  static final Status SERVER_UNAVAILABLE = new Status("SERVER_UNAVAILABLE",
      "A region server or the master could not be reached or is stopping.");
  static final Status OVERLOADED = new Status("OVERLOADED",
      "The server pushed back (region too busy, call queue full, throttled).");
  static final Status TIMEOUT = new Status("TIMEOUT",
      "No answer within the RPC or operation timeout.");
  static final Status RETRIES_EXHAUSTED = new Status("RETRIES_EXHAUSTED",
      "The client gave up after hbase.client.retries.number attempts.");
  // a SCAN under a salt that cannot scan in key order: SaltedRowKey.scansInKeyOrder()
  static final Status SCAN_UNSUPPORTED = new Status("SCAN_UNSUPPORTED",
      "Scans in key order need hbase.salt=buckets:N or none.");

  private HBaseErrors() {
  }

  static Status statusOf(Throwable error) {
    List<Throwable> chain = causes(error);
    for (Throwable e : chain) {
      Status s = specific(e);
      if (s != null) {
        return s;
      }
    }
    for (Throwable e : chain) {
      if (e instanceof RetriesExhaustedException) {
        return RETRIES_EXHAUSTED;
      }
    }
    return Status.ERROR;
  }

  private static Status specific(Throwable e) {
    if (e instanceof TableNotFoundException) {
      return TABLE_NOT_FOUND;
    }
    if (e instanceof NoSuchColumnFamilyException) {
      return NO_SUCH_FAMILY;
    }
    if (e instanceof TableNotEnabledException) {
      return TABLE_DISABLED;
    }
    if (e instanceof NotServingRegionException || e instanceof RegionOfflineException) {
      return REGION_UNAVAILABLE;
    }
    if (e instanceof RegionTooBusyException || e instanceof CallQueueTooBigException
        || e instanceof RpcThrottlingException) {
      return OVERLOADED;
    }
    if (e instanceof CallTimeoutException || e instanceof SocketTimeoutException
        || e instanceof TimeoutIOException || e instanceof OperationTimeoutExceededException) {
      return TIMEOUT;
    }
    if (e instanceof ConnectException || e instanceof FailedServerException
        || e instanceof ServerNotRunningYetException || e instanceof RegionServerStoppedException
        || e instanceof MasterNotRunningException || e instanceof ConnectionClosedException) {
      return SERVER_UNAVAILABLE;
    }
    if (e instanceof AccessDeniedException) {
      return Status.FORBIDDEN;
    }
    return null;
  }

  /** The error, its causes, and the per-row causes of batch failures, each once. */
  static List<Throwable> causes(Throwable error) {
    Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    List<Throwable> out = new ArrayList<>();
    List<Throwable> todo = new ArrayList<>();
    todo.add(error);
    while (!todo.isEmpty()) {
      Throwable e = todo.remove(0);
      if (e == null || !seen.add(e)) {
        continue;
      }
      out.add(e);
      if (e instanceof RetriesExhaustedWithDetailsException) {
        todo.addAll(((RetriesExhaustedWithDetailsException) e).getCauses());
      }
      todo.add(e.getCause());
    }
    return out;
  }
}
