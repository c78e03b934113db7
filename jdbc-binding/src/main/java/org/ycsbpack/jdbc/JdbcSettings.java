package org.ycsbpack.jdbc;

import static org.ycsbpack.jdbc.JdbcProperties.AUTO_COMMIT;
import static org.ycsbpack.jdbc.JdbcProperties.BATCH_UPDATE_API;
import static org.ycsbpack.jdbc.JdbcProperties.CONNECT_TIMEOUT_MS;
import static org.ycsbpack.jdbc.JdbcProperties.CREATE_TABLE;
import static org.ycsbpack.jdbc.JdbcProperties.DRIVER;
import static org.ycsbpack.jdbc.JdbcProperties.FETCH_SIZE;
import static org.ycsbpack.jdbc.JdbcProperties.FIELD_COUNT;
import static org.ycsbpack.jdbc.JdbcProperties.FIELD_PREFIX;
import static org.ycsbpack.jdbc.JdbcProperties.LIST_PURGE_SECONDS;
import static org.ycsbpack.jdbc.JdbcProperties.PASSWORD;
import static org.ycsbpack.jdbc.JdbcProperties.POOL_SIZE;
import static org.ycsbpack.jdbc.JdbcProperties.TABLE;
import static org.ycsbpack.jdbc.JdbcProperties.URL;
import static org.ycsbpack.jdbc.JdbcProperties.USER;
import static org.ycsbpack.jdbc.JdbcProperties.YCSB_BATCH_SIZE;

import java.util.Properties;
import org.ycsbpack.common.BindingProperty;
import org.ycsbpack.common.PropertyValues;
import site.ycsb.DBException;

/**
 * The binding's properties, parsed and validated once: a bad value fails init() with a sentence
 * naming the property, before any connection is made.
 */
final class JdbcSettings {
  /** URL schemes of the MySQL family and the driver class each selects. */
  static final String MARIADB_SCHEME = "jdbc:mariadb:";
  static final String MYSQL_SCHEME = "jdbc:mysql:";

  final PropertyValues values;
  final String url;
  final String user;
  final String password;
  final String driver;
  final String table;
  final int poolSize;
  final int connectTimeoutMs;
  final int fetchSize;
  final boolean jdbcBatch;
  final boolean createTable;
  final int listPurgeSeconds;
  final int fieldCount;
  final String fieldPrefix;

  JdbcSettings(Properties props) throws DBException {
    values = new PropertyValues(props);
    url = values.string(URL);
    if (!url.startsWith(MARIADB_SCHEME) && !url.startsWith(MYSQL_SCHEME)) {
      throw new DBException("property " + URL.name() + "='" + masked(url) + "' is not a MariaDB "
          + "or MySQL URL: expected jdbc:mariadb://host:port/database or "
          + "jdbc:mysql://host:port/database (default: " + URL.defaultValue() + ")");
    }
    user = values.string(USER);
    password = values.string(PASSWORD);
    driver = values.isSet(DRIVER) ? values.string(DRIVER)
        : url.startsWith(MARIADB_SCHEME) ? "org.mariadb.jdbc.Driver" : "com.mysql.cj.jdbc.Driver";
    table = identifier(TABLE, values.string(TABLE));
    poolSize = "threadcount".equals(values.string(POOL_SIZE))
        ? threads(props) : values.integer(POOL_SIZE, 1, 10_000);
    connectTimeoutMs = values.integer(CONNECT_TIMEOUT_MS, 250, 3_600_000);
    fetchSize = values.integer(FETCH_SIZE, 0, 1_000_000);
    if (!values.bool(AUTO_COMMIT)) {
      throw new DBException("property " + AUTO_COMMIT.name() + "=false is not supported: this "
          + "binding commits every operation and every batch statement on its own; remove it");
    }
    if (values.integer(YCSB_BATCH_SIZE, 0, Integer.MAX_VALUE) != 0) {
      throw new DBException("property " + YCSB_BATCH_SIZE.name() + "=" + values.string(
          YCSB_BATCH_SIZE) + " (buffered inserts) is not supported: use -p workload="
          + "org.ycsbpack.common.batch.BatchedWorkload -p batchload=true -p batchsize=N, whose "
          + "batches are counted per record");
    }
    jdbcBatch = values.bool(BATCH_UPDATE_API);
    createTable = values.bool(CREATE_TABLE);
    listPurgeSeconds = values.integer(LIST_PURGE_SECONDS, 0, 86_400);
    fieldCount = values.integer(FIELD_COUNT, 1, 1_000);
    fieldPrefix = identifier(FIELD_PREFIX, values.string(FIELD_PREFIX));
  }

  private static int threads(Properties props) throws DBException {
    String raw = props.getProperty("threadcount", "1").trim();
    try {
      return Math.max(1, Integer.parseInt(raw));
    } catch (NumberFormatException e) {
      throw new DBException("property threadcount='" + raw + "' is not a number");
    }
  }

  /** Identifies the pool this client may share: the connection properties. */
  String connectionKey() {
    return url + '\n' + user + '\n' + password + '\n' + driver + '\n' + poolSize + '\n'
        + connectTimeoutMs;
  }

  /** The URL as it may be printed: password parameters and user:password@ masked. */
  String printableUrl() {
    return masked(url);
  }

  static String masked(String url) {
    return url.replaceAll("(?i)(password[0-9]*=)[^&;]*", "$1*****")
        .replaceAll("//([^/@:]*):[^/@]*@", "//$1:*****@");
  }

  /** Names are spliced into SQL, so only plain identifiers are accepted. */
  static String identifier(BindingProperty p, String name) throws DBException {
    if (name == null || !name.matches("[A-Za-z_][A-Za-z0-9_]{0,63}")) {
      throw new DBException("property " + p.name() + "='" + name + "' is not a valid SQL name: "
          + "use letters, digits and _ (at most 64), not starting with a digit");
    }
    return name;
  }
}
