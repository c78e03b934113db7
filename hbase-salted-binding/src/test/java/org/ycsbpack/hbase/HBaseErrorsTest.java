package org.ycsbpack.hbase;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.util.Arrays;
import java.util.Collections;
import org.apache.hadoop.hbase.NotServingRegionException;
import org.apache.hadoop.hbase.RegionTooBusyException;
import org.apache.hadoop.hbase.TableNotEnabledException;
import org.apache.hadoop.hbase.TableNotFoundException;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RetriesExhaustedException;
import org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException;
import org.apache.hadoop.hbase.client.Row;
import org.apache.hadoop.hbase.ipc.CallTimeoutException;
import org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException;
import org.junit.jupiter.api.Test;
import site.ycsb.Status;

class HBaseErrorsTest {

  /** How a multi-get or a BufferedMutator flush reports one failed row. */
  private static RetriesExhaustedWithDetailsException batchFailure(Throwable cause) {
    Row row = new Put(new byte[] {1});
    return new RetriesExhaustedWithDetailsException(Collections.singletonList(cause),
        Collections.singletonList(row), Collections.singletonList("127.0.0.1:16020"));
  }

  @Test
  void eachKnownFailureHasItsOwnStatus() {
    assertEquals(HBaseErrors.TABLE_NOT_FOUND,
        HBaseErrors.statusOf(new TableNotFoundException("usertable")));
    assertEquals(HBaseErrors.NO_SUCH_FAMILY,
        HBaseErrors.statusOf(new NoSuchColumnFamilyException("family x")));
    assertEquals(HBaseErrors.TABLE_DISABLED,
        HBaseErrors.statusOf(new TableNotEnabledException("usertable")));
    assertEquals(HBaseErrors.REGION_UNAVAILABLE,
        HBaseErrors.statusOf(new NotServingRegionException("r1")));
    assertEquals(HBaseErrors.OVERLOADED,
        HBaseErrors.statusOf(new RegionTooBusyException("busy")));
    assertEquals(HBaseErrors.TIMEOUT, HBaseErrors.statusOf(new CallTimeoutException("t")));
    assertEquals(HBaseErrors.TIMEOUT, HBaseErrors.statusOf(new SocketTimeoutException("t")));
    assertEquals(HBaseErrors.SERVER_UNAVAILABLE,
        HBaseErrors.statusOf(new ConnectException("Connection refused")));
  }

  @Test
  void theCauseInsideABatchFailureDecides() {
    assertEquals(HBaseErrors.TABLE_NOT_FOUND,
        HBaseErrors.statusOf(batchFailure(new TableNotFoundException("usertable"))));
    assertEquals(HBaseErrors.NO_SUCH_FAMILY,
        HBaseErrors.statusOf(batchFailure(new NoSuchColumnFamilyException("x"))));
  }

  @Test
  void retriesExhaustedWithoutAKnownCauseIsItsOwnStatus() {
    assertEquals(HBaseErrors.RETRIES_EXHAUSTED,
        HBaseErrors.statusOf(new RetriesExhaustedException("Failed after attempts=2")));
    assertEquals(HBaseErrors.RETRIES_EXHAUSTED,
        HBaseErrors.statusOf(batchFailure(new IOException("something else"))));
  }

  @Test
  void aKnownCauseBehindRetriesExhaustedWins() {
    RetriesExhaustedException e = new RetriesExhaustedException("Failed after attempts=2",
        new IOException(new ConnectException("Connection refused")));
    assertEquals(HBaseErrors.SERVER_UNAVAILABLE, HBaseErrors.statusOf(e));
  }

  @Test
  void anythingElseIsAPlainError() {
    assertEquals(Status.ERROR, HBaseErrors.statusOf(new IOException("disk on fire")));
  }

  @Test
  void theStatusNamesAreDistinct() {
    assertEquals(9, Arrays.asList(HBaseErrors.TABLE_NOT_FOUND, HBaseErrors.NO_SUCH_FAMILY,
        HBaseErrors.TABLE_DISABLED, HBaseErrors.REGION_UNAVAILABLE, HBaseErrors.SERVER_UNAVAILABLE,
        HBaseErrors.OVERLOADED, HBaseErrors.TIMEOUT, HBaseErrors.RETRIES_EXHAUSTED,
        HBaseErrors.SCAN_UNSUPPORTED).stream().map(Status::getName).distinct().count());
  }
}
