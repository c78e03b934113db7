package org.ycsbpack.jdbc;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.ycsbpack.common.BindingProperty;

/**
 * Every property of the jdbc binding, with its default and meaning: the one definition the code
 * reads and the README table is generated from. Connection properties keep the names of YCSB's
 * own jdbc binding ({@code db.url}, {@code db.user}, {@code db.passwd}, {@code db.driver},
 * {@code jdbc.fetchsize}, ...) so existing workload files carry over.
 */
public final class JdbcProperties {
  private JdbcProperties() {
  }

  /** The binding's name: {@code bin/ycsb}'s word for it and the first word of its messages. */
  static final String BINDING = "jdbc";

  public static final BindingProperty URL = BindingProperty.of("db.url",
      "jdbc:mariadb://127.0.0.1:13306/ycsb", "JDBC URL of the database; the scheme picks the "
          + "driver: `jdbc:mariadb://` MariaDB Connector/J, `jdbc:mysql://` MySQL Connector/J "
          + "(MySQL 8). Driver options go in the URL (`?useSSL=false&...`).");
  public static final BindingProperty USER = BindingProperty.of("db.user", "root",
      "Database user.");
  public static final BindingProperty PASSWORD = BindingProperty.optional("db.passwd",
      "Password of `db.user`; unset means none. Never printed or logged.");
  public static final BindingProperty DRIVER = BindingProperty.optional("db.driver",
      "JDBC driver class to load (e.g. `org.mariadb.jdbc.Driver`); unset: the one the URL "
          + "scheme selects.");
  public static final BindingProperty TABLE = BindingProperty.of("table", "usertable",
      "Table (YCSB core property): `YCSB_KEY` primary key and one column per field.");
  public static final BindingProperty POOL_SIZE = BindingProperty.of("jdbc.poolsize",
      "threadcount", "Connections of the client JVM's pool (HikariCP); `threadcount` means "
          + "one per YCSB client thread.");
  public static final BindingProperty CONNECT_TIMEOUT_MS = BindingProperty.of(
      "jdbc.connecttimeoutms", "10000", "How long init() and an operation wait for a connection "
          + "before failing (pool `connectionTimeout`).");
  public static final BindingProperty FETCH_SIZE = BindingProperty.of("jdbc.fetchsize", "0",
      "Rows fetched per round trip by scans (YCSB jdbc property); 0 lets the driver read the "
          + "whole result at once.");
  public static final BindingProperty AUTO_COMMIT = BindingProperty.of("jdbc.autocommit",
      "true", "YCSB jdbc property; only `true` is supported: every operation, and every batch "
          + "statement, commits on its own.");
  public static final BindingProperty YCSB_BATCH_SIZE = BindingProperty.of("db.batchsize", "0",
      "YCSB jdbc property (buffered inserts); only 0 is supported: use BatchedWorkload "
          + "(`batchload=true`, `batchsize=N`), whose batches are measured per record.");
  public static final BindingProperty BATCH_UPDATE_API = BindingProperty.of(
      "jdbc.batchupdateapi", "false", "How BATCH_INSERT / BATCH_UPDATE / BATCH_APPEND are sent: "
          + "`false`, one multi-row statement (`INSERT ... VALUES (...),(...)`, `UPDATE ... "
          + "CASE`); `true`, a JDBC batch of single-row statements (`addBatch`/`executeBatch`).");
  public static final BindingProperty CREATE_TABLE = BindingProperty.of("jdbc.createtable",
      "false", "Create the table (and the list table of ListAppendWorkload) if missing, once per "
          + "client JVM. An existing table is used as it is.");
  public static final BindingProperty LIST_PURGE_SECONDS = BindingProperty.of(
      "jdbc.listpurgeseconds", "60", "ListAppendWorkload: every N seconds one thread of the "
          + "client JVM deletes expired list elements (1,000 rows per statement); 0 never.");
  public static final BindingProperty FIELD_COUNT = BindingProperty.of("fieldcount", "10",
      "Field columns `field0..field<N-1>` of a created table (YCSB core property).");
  public static final BindingProperty FIELD_PREFIX = BindingProperty.of("fieldnameprefix",
      "field", "Prefix of the field column names (YCSB core property).");

  /** All properties, in README order. */
  public static final List<BindingProperty> ALL = Collections.unmodifiableList(Arrays.asList(
      URL, USER, PASSWORD, DRIVER, TABLE, POOL_SIZE, CONNECT_TIMEOUT_MS, FETCH_SIZE, AUTO_COMMIT,
      YCSB_BATCH_SIZE, BATCH_UPDATE_API, CREATE_TABLE, LIST_PURGE_SECONDS, FIELD_COUNT,
      FIELD_PREFIX));
}
