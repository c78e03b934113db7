package org.ycsbpack.cassandra4;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.ycsbpack.common.BindingProperty;
import org.ycsbpack.common.PropertyValues;

/**
 * Every property of the cassandra4 binding, with its default and meaning: the one definition
 * the code reads and the README table is generated from. Properties marked
 * {@link BindingProperty#perClient()} are applied by each client; all others decide which
 * CqlSession a client shares.
 */
public final class CassandraProperties {
  private CassandraProperties() {
  }

  /** The binding's name: {@code bin/ycsb}'s word for it and the first word of its messages. */
  static final String BINDING = "cassandra4";

  public static final BindingProperty HOSTS = BindingProperty.of("hosts", "127.0.0.1",
      "Contact points, comma-separated, each `host` or `host:port`.");
  public static final BindingProperty PORT = BindingProperty.of("port", "9042",
      "CQL port for hosts given without one.");
  public static final BindingProperty LOCAL_DC = BindingProperty.of("cassandra.localdc",
      "datacenter1", "Local datacenter of the load-balancing policy; must match a datacenter "
          + "of the cluster (checked at start).");
  public static final BindingProperty KEYSPACE = BindingProperty.of("cassandra.keyspace", "ycsb",
      "Keyspace of the table.");
  public static final BindingProperty TABLE = BindingProperty.of("table", "usertable",
      "Table (YCSB core property).");
  public static final BindingProperty USERNAME = BindingProperty.optional("cassandra.username",
      "User for PasswordAuthenticator; unset means no authentication.");
  public static final BindingProperty PASSWORD = BindingProperty.optional("cassandra.password",
      "Password of `cassandra.username`; never printed or logged.");
  public static final BindingProperty READ_CL = BindingProperty.of(
      "cassandra.readconsistencylevel", "ONE", "Consistency level of reads (ONE, TWO, THREE, "
          + "QUORUM, ALL, LOCAL_ONE, LOCAL_QUORUM, EACH_QUORUM, SERIAL, LOCAL_SERIAL, ANY).")
      .perClient();
  public static final BindingProperty WRITE_CL = BindingProperty.of(
      "cassandra.writeconsistencylevel", "ONE", "Consistency level of inserts, updates and "
          + "deletes.").perClient();
  public static final BindingProperty SCAN_CL = BindingProperty.of(
      "cassandra.scanconsistencylevel", "ONE", "Consistency level of scans.").perClient();
  public static final BindingProperty REQUEST_TIMEOUT_MS = BindingProperty.of(
      "cassandra.requesttimeoutms", "2000", "Client-side timeout of one request, in ms "
          + "(driver `basic.request.timeout`); expiry is counted as CLIENT_TIMEOUT.");
  public static final BindingProperty CONNECTIONS_PER_HOST = BindingProperty.of(
      "cassandra.connectionsperhost", "1,1", "Connections per node: `local,remote` pool sizes "
          + "(one number sets both).");
  public static final BindingProperty MAX_REQUESTS_PER_CONNECTION = BindingProperty.of(
      "cassandra.maxrequestsperconnection", "1024", "In-flight requests per connection.");
  public static final BindingProperty COMPRESSION = BindingProperty.of("cassandra.compression",
      "none", "Protocol compression: `none` or `lz4`.");
  public static final BindingProperty SSL = BindingProperty.of("cassandra.ssl", "false",
      "TLS with the JVM's default SSLContext (set `javax.net.ssl.trustStore` through "
          + "`-jvm-args`).");
  public static final BindingProperty DRIVER_CONFIG = BindingProperty.optional(
      "cassandra.driverconfig", "Path of a java-driver `application.conf` for any other driver "
          + "setting; the properties above, when set, override it.");
  public static final BindingProperty SCAN_PAGE_SIZE = BindingProperty.of(
      "cassandra.scanpagesize", "5000", "Rows per page of a scan.").perClient();
  public static final BindingProperty BATCH_READ = BindingProperty.of("cassandra.batchread",
      PropertyValues.wordOf(BatchReadMode.IN), "How BatchedWorkload's BATCH_READ runs: `in` "
          + "(one `WHERE y_id IN ?` statement, as the reports did) or `async` (concurrent "
          + "single-partition reads, the driver's advice).")
      .perClient();
  public static final BindingProperty BATCH_WRITE = BindingProperty.of("cassandra.batchwrite",
      PropertyValues.wordOf(BatchWriteMode.UNLOGGED), "How BATCH_INSERT/BATCH_UPDATE run: "
          + "`unlogged` or `logged` BATCH statement, or `async` (concurrent single statements).")
      .perClient();
  public static final BindingProperty CREATE_SCHEMA = BindingProperty.of(
      "cassandra.createschema", "false", "Create the keyspace and table if missing (once per "
          + "client JVM, before any operation), then wait until every live node has the table.");
  public static final BindingProperty REPLICATION = BindingProperty.of("cassandra.replication",
      "SimpleStrategy:1", "Replication of a created keyspace: `SimpleStrategy:N` or "
          + "`NetworkTopologyStrategy:dc=N[,dc=N]`.");
  public static final BindingProperty COMPACTION = BindingProperty.of("cassandra.compaction",
      "size-tiered", "Compaction of a created table: `size-tiered`, `leveled` or `unified`.");
  public static final BindingProperty CACHING = BindingProperty.of("cassandra.caching", "keys",
      "Caching of a created table: `keys` (key cache only), `rows` (row cache only), `all` "
          + "(both) or `none`. The row cache needs `row_cache_size` > 0 on the server.");
  public static final BindingProperty SSTABLE_COMPRESSION = BindingProperty.of(
      "cassandra.sstablecompression", "LZ4Compressor:16", "SSTable compression of a created "
          + "table: `<Compressor>[:<chunk KB>]` (LZ4Compressor, SnappyCompressor, "
          + "DeflateCompressor, ZstdCompressor) or `none`.");
  public static final BindingProperty FIELD_COUNT = BindingProperty.of("fieldcount", "10",
      "Field columns `field0..field<N-1>` of a created table (YCSB core property).");
  public static final BindingProperty FIELD_PREFIX = BindingProperty.of("fieldnameprefix",
      "field", "Prefix of the field column names (YCSB core property).");

  /** All properties, in README order. */
  public static final List<BindingProperty> ALL = Collections.unmodifiableList(Arrays.asList(
      HOSTS, PORT, LOCAL_DC, KEYSPACE, TABLE, USERNAME, PASSWORD, READ_CL, WRITE_CL, SCAN_CL,
      REQUEST_TIMEOUT_MS, CONNECTIONS_PER_HOST, MAX_REQUESTS_PER_CONNECTION, COMPRESSION, SSL,
      DRIVER_CONFIG, SCAN_PAGE_SIZE, BATCH_READ, BATCH_WRITE, CREATE_SCHEMA, REPLICATION,
      COMPACTION, CACHING, SSTABLE_COMPRESSION, FIELD_COUNT, FIELD_PREFIX));

  /** The names of {@link #ALL}. */
  public static final Set<String> NAMES = ALL.stream().map(BindingProperty::name)
      .collect(Collectors.toSet());

  /** The prefix of the binding's own property names: an unknown one is a typo. */
  public static final String PREFIX = "cassandra.";
}
