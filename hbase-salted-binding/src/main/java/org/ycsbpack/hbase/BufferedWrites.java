package org.ycsbpack.hbase;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException;
import org.apache.hadoop.hbase.client.Row;
import org.ycsbpack.common.ErrorLog;
import site.ycsb.Status;
import site.ycsb.measurements.Measurements;

/**
 * The writes of one client thread under {@code hbase.clientbuffering=true}: a BufferedMutator
 * that sends them when its buffer is full and in {@link #close()}.
 *
 * <p>A buffered write returns BATCHED_OK before the server has it, so a flush that fails must
 * not stay silent: every row it could not write is counted again, under its YCSB operation
 * (INSERT, UPDATE, DELETE) and the failure's status, in YCSB's {@code Return=} lines, and the
 * first few are printed with their keys. That is why each mutation carries its operation and
 * key: HBase hands the failed mutations themselves back to the listener.
 */
final class BufferedWrites implements BufferedMutator.ExceptionListener, AutoCloseable {
  private final BufferedMutator mutator;
  private final ErrorLog errors;
  private final AtomicLong failedRows = new AtomicLong();

  BufferedWrites(Connection connection, HBaseSettings s, ErrorLog errors) throws IOException {
    this.errors = errors;
    this.mutator = connection.getBufferedMutator(new BufferedMutatorParams(s.table)
        .writeBufferSize(s.writeBufferSize)
        .listener(this));
  }

  /** A Put that remembers which YCSB operation and key it came from. */
  static final class OperationPut extends Put {
    final String operation;
    final String key;

    OperationPut(String operation, String key, byte[] row) {
      super(row);
      this.operation = operation;
      this.key = key;
    }
  }

  /** A Delete that remembers its YCSB key. */
  static final class OperationDelete extends Delete {
    final String key;

    OperationDelete(String key, byte[] row) {
      super(row);
      this.key = key;
    }
  }

  /** Buffers the mutation; sends the buffer first when it is full (failures reach the listener). */
  void mutate(Mutation m) throws IOException {
    mutator.mutate(m);
  }

  /** Sends everything buffered and waits for it (failures reach the listener). */
  void flush() throws IOException {
    mutator.flush();
  }

  /** Rows that a flush of this thread failed to write, so far. */
  long failedRows() {
    return failedRows.get();
  }

  @Override
  public void onException(RetriesExhaustedWithDetailsException e, BufferedMutator from) {
    for (int i = 0; i < e.getNumExceptions(); i++) {
      Row row = e.getRow(i);
      Throwable cause = e.getCause(i);
      String operation = row instanceof OperationPut ? ((OperationPut) row).operation
          : row instanceof Delete ? "DELETE" : "WRITE";
      String key = row instanceof OperationPut ? ((OperationPut) row).key
          : row instanceof OperationDelete ? ((OperationDelete) row).key : "(unknown key)";
      Status status = HBaseErrors.statusOf(cause);
      failedRows.incrementAndGet();
      count(operation, status);
      errors.failed(status, "buffered " + operation, key, cause);
    }
  }

  private static void count(String operation, Status status) {
    try {
      Measurements.getMeasurements().reportStatus(operation, status);
    } catch (RuntimeException e) {
      // not run by YCSB's Client (no measurement properties): the ErrorLog line still tells
    }
  }

  /** Sends what is still buffered and waits for it; failures reach the listener first. */
  @Override
  public void close() throws IOException {
    mutator.close();
  }
}
