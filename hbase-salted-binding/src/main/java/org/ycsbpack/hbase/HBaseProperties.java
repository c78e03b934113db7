package org.ycsbpack.hbase;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.ycsbpack.common.BindingProperty;
import org.ycsbpack.common.PropertyValues;

/**
 * Every property of the hbase-salted binding, with its default and meaning: the one definition
 * the code reads and the README table is generated from. The cluster settings decide which
 * HBase Connection a client shares; the others, marked {@link BindingProperty#perClient()}, each
 * client applies itself (its Table, row keys, writes, table checks).
 */
public final class HBaseProperties {
  private HBaseProperties() {
  }

  /** The binding's name: {@code bin/ycsb}'s word for it and the first word of its messages. */
  static final String BINDING = "hbase-salted";

  public static final BindingProperty ZK_QUORUM = BindingProperty.of("hbase.zookeeper.quorum",
      "127.0.0.1", "ZooKeeper hosts of the cluster, comma-separated. Unset: the value of an "
          + "`hbase-site.xml` on the classpath, else HBase's default 127.0.0.1.");
  public static final BindingProperty ZK_PORT = BindingProperty.of(
      "hbase.zookeeper.property.clientPort", "2181", "ZooKeeper client port (unset: "
          + "`hbase-site.xml`, else 2181).");
  public static final BindingProperty BOOTSTRAP_SERVERS = BindingProperty.optional(
      "hbase.client.bootstrap.servers", "`host:port` of masters or region servers, "
          + "comma-separated: connect through HBase's RPC connection registry instead of "
          + "ZooKeeper.");
  public static final BindingProperty TMP_DIR = BindingProperty.of("hbase.tmp.dir",
      "${java.io.tmpdir}/ycsb-hbase-client-${user.name}", "Local directory of the HBase client "
          + "(it creates `local/jars` there); never HBase's default `/tmp/hbase-<user>`, which a "
          + "standalone server may use for its data.");
  public static final BindingProperty CONNECT_TIMEOUT_MS = BindingProperty.of(
      "hbase.connecttimeoutms", "30000", "How long init() waits for the cluster to answer "
          + "(connect, check the table) before it fails naming the ZooKeeper quorum.");
  public static final BindingProperty EVENT_LOOP = BindingProperty.of("hbase.rpc.eventloop",
      "hbase", "Netty event loop of the HBase RPC client: `hbase` (HBase's default left as it "
          + "is: nio with `hbase.netty.eventloop.rpcclient.thread.count` threads, 2 per core), "
          + "`epoll` (netty's native Linux transport, shipped with the client) or `nio`, each "
          + "with `hbase.rpc.eventloop.threads` threads. One per JVM: all its clients must "
          + "agree. Measured no cheaper per operation on one server (README, Binding efficiency).");
  public static final BindingProperty EVENT_LOOP_THREADS = BindingProperty.of(
      "hbase.rpc.eventloop.threads", "1", "Event loop threads of `epoll` or `nio`, 1 to 256 "
          + "(a connection to one region server is one channel, served by one thread).");
  public static final BindingProperty TABLE = BindingProperty.of("table", "usertable",
      "Table, `name` or `namespace:name` (YCSB core property).")
      .perClient();
  public static final BindingProperty COLUMN_FAMILY = BindingProperty.of("columnfamily", "cf",
      "Column family holding the fields (the report's `cf`); one column per YCSB field.")
      .perClient();
  public static final BindingProperty SALT = BindingProperty.of("hbase.salt", "crc32",
      "Row-key salt: `crc32` (2 bytes from the key's CRC32, the report's function), "
          + "`buckets:N` (1 byte, CRC32 modulo N, N from 1 to 256; scans work) or `none`.")
      .perClient();
  public static final BindingProperty KEY_ENCODING = BindingProperty.of("hbase.keyencoding",
      "string", "Key bytes after the salt: `string` (the YCSB key in UTF-8) or `long` (the number "
          + "the key ends with, as 8 big-endian bytes: `user123` gives 123).")
      .perClient();
  public static final BindingProperty CLIENT_BUFFERING = BindingProperty.of(
      "hbase.clientbuffering", "false", "Send inserts, updates and deletes through a per-thread "
          + "BufferedMutator (they return BATCHED_OK); flushed when full and in cleanup(). Rows a "
          + "flush fails to write are counted under their error status.")
      .perClient();
  public static final BindingProperty WRITE_BUFFER_SIZE = BindingProperty.of(
      "hbase.writebuffersize", "2097152", "BufferedMutator buffer in bytes (HBase's default).")
      .perClient();
  public static final BindingProperty BATCH_WRITE = BindingProperty.of("hbase.batchwrite",
      PropertyValues.wordOf(BatchWriteMode.BATCH), "How BatchedWorkload's BATCH_INSERT / "
          + "BATCH_UPDATE are sent: `batch`, one "
          + "`Table.batch` call (the report's `table.put(List<Put>)`); `mutator`, the Puts into "
          + "a per-thread BufferedMutator of their own, then `flush()`. Both return when every "
          + "row is written and count failed rows exactly.")
      .perClient();
  public static final BindingProperty DURABILITY = BindingProperty.of("hbase.durability",
      "USE_DEFAULT", "Durability of writes: USE_DEFAULT, SKIP_WAL, ASYNC_WAL, SYNC_WAL or "
          + "FSYNC_WAL.")
      .perClient();
  public static final BindingProperty CREATE_TABLE = BindingProperty.of("hbase.createtable",
      "false", "Create the table (and its namespace) if missing, once per client JVM, with the "
          + "options below. An existing table is used as it is.")
      .perClient();
  public static final BindingProperty PRESPLIT = BindingProperty.of("hbase.presplit", "auto",
      "Regions of a created table, split uniformly over the salt prefixes. `auto`: 64 for "
          + "`crc32` (the report's), min(N, 64) for `buckets:N`, 1 for `none`.")
      .perClient();
  public static final BindingProperty COMPRESSION = BindingProperty.of("hbase.compression",
      "NONE", "Compression of a created table's family: NONE, GZ (pure Java, works everywhere), "
          + "SNAPPY, LZ4, LZO, BZIP2, ZSTD, LZMA, BROTLI; the servers must have the codec.")
      .perClient();
  public static final BindingProperty BLOCK_ENCODING = BindingProperty.of("hbase.blockencoding",
      "NONE", "Data block encoding of a created table: NONE, PREFIX, DIFF, FAST_DIFF (the "
          + "report's) or ROW_INDEX_V1.")
      .perClient();
  public static final BindingProperty BLOOM_FILTER = BindingProperty.of("hbase.bloomfilter",
      "ROW", "Bloom filter of a created table: NONE, ROW or ROWCOL.")
      .perClient();
  public static final BindingProperty TTL = BindingProperty.of("hbase.ttl", "FOREVER",
      "Time to live of a created table's cells, in seconds, or FOREVER.")
      .perClient();

  /** All properties, in README order. */
  public static final List<BindingProperty> ALL = Collections.unmodifiableList(Arrays.asList(
      ZK_QUORUM, ZK_PORT, BOOTSTRAP_SERVERS, TMP_DIR, CONNECT_TIMEOUT_MS, EVENT_LOOP,
      EVENT_LOOP_THREADS, TABLE, COLUMN_FAMILY,
      SALT, KEY_ENCODING, CLIENT_BUFFERING, WRITE_BUFFER_SIZE, BATCH_WRITE, DURABILITY,
      CREATE_TABLE, PRESPLIT, COMPRESSION, BLOCK_ENCODING, BLOOM_FILTER, TTL));
}
