package org.ycsbpack.jdbc;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransientConnectionException;
import site.ycsb.Status;

/**
 * Maps SQL failures to distinct YCSB statuses, so {@code Return=} lines tell a deadlock from a
 * lock wait timeout, a duplicate key or a lost connection. MariaDB and MySQL share the error
 * numbers used here (ER_LOCK_DEADLOCK 1213, ER_LOCK_WAIT_TIMEOUT 1205, ER_DUP_ENTRY 1062, ...).
 */
final class SqlErrors {
  static final Status DEADLOCK = new Status("DEADLOCK",
      "The server rolled the statement back to break a deadlock (error 1213).");
  static final Status LOCK_WAIT_TIMEOUT = new Status("LOCK_WAIT_TIMEOUT",
      "A row lock was not granted within innodb_lock_wait_timeout (error 1205).");
  static final Status DUPLICATE_KEY = new Status("DUPLICATE_KEY",
      "An insert of a key that exists (error 1062).");
  static final Status CONNECTION_LOST = new Status("CONNECTION_LOST",
      "The connection to the server failed or could not be made (SQLState 08).");
  static final Status POOL_TIMEOUT = new Status("POOL_TIMEOUT",
      "No pooled connection became free within jdbc.connecttimeoutms.");
  static final Status TIMEOUT = new Status("TIMEOUT", "The statement exceeded its time limit.");
  static final Status TABLE_NOT_FOUND = new Status("TABLE_NOT_FOUND",
      "The table does not exist (error 1146).");
  static final Status UNKNOWN_COLUMN = new Status("UNKNOWN_COLUMN",
      "The table has no such column (error 1054).");

  private SqlErrors() {
  }

  /** The first line of a failure's message, passwords in it masked. */
  static String firstLine(Throwable e) {
    String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    int nl = m.indexOf('\n');
    return JdbcSettings.masked(nl < 0 ? m : m.substring(0, nl));
  }

  static Status statusOf(Throwable e) {
    SQLException sql = null;
    for (Throwable t = e; t != null && t != t.getCause(); t = t.getCause()) {
      if (t instanceof SQLException) {
        Status s = direct((SQLException) t);
        if (s != null) {
          return s;
        }
        if (sql == null) {
          sql = (SQLException) t;
        }
      }
    }
    if (sql instanceof SQLTransientConnectionException) {
      // HikariCP's "Connection is not available, request timed out": no connection failed
      return POOL_TIMEOUT;
    }
    return Status.ERROR;
  }

  /** The status an exception gives by itself, or null to look at its causes. */
  private static Status direct(SQLException e) {
    switch (e.getErrorCode()) {
      case 1213:
        return DEADLOCK;
      case 1205:
        return LOCK_WAIT_TIMEOUT;
      case 1062:
        return DUPLICATE_KEY;
      case 1146:
        return TABLE_NOT_FOUND;
      case 1054:
        return UNKNOWN_COLUMN;
      case 1044: // ER_DBACCESS_DENIED_ERROR
      case 1045: // ER_ACCESS_DENIED_ERROR
      case 1142: // ER_TABLEACCESS_DENIED_ERROR
        return Status.FORBIDDEN;
      case 1969: // MariaDB: max_statement_time exceeded
      case 3024: // MySQL: max_execution_time exceeded
        return TIMEOUT;
      default:
        break;
    }
    String state = e.getSQLState();
    if ((state != null && state.startsWith("08"))
        || e instanceof SQLNonTransientConnectionException
        || e instanceof SQLRecoverableException) {
      return CONNECTION_LOST;
    }
    if ("40001".equals(state)) {
      return DEADLOCK;
    }
    if (e instanceof SQLTimeoutException) {
      return TIMEOUT;
    }
    return null;
  }
}
