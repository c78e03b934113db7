package org.ycsbpack.bench;

/**
 * The two operations of the raw loop on one database, written directly on its client library
 * as a hand-made benchmark would, with the settings the project's binding uses by default.
 * One instance per thread ({@link #forThread}) over one shared connection.
 */
interface RawClient extends AutoCloseable {
  /** Reads every field of the row; true when it was found. Values are turned into bytes. */
  boolean read(String key) throws Exception;

  /** Writes one field of the row. */
  void update(String key, int field, byte[] value) throws Exception;

  /** The per-thread handle (an HBase Table, or this client itself when it is thread-safe). */
  RawClient forThread() throws Exception;

  @Override
  void close() throws Exception;
}
