package org.ycsbpack.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransactionRollbackException;
import java.sql.SQLTransientConnectionException;
import org.junit.jupiter.api.Test;
import site.ycsb.Status;

/** Status mapping of the errors MariaDB and MySQL report (codes and states as the servers send). */
class SqlErrorsTest {
  @Test
  void lockingAndKeyErrorsHaveTheirOwnStatuses() {
    assertEquals(SqlErrors.DEADLOCK, SqlErrors.statusOf(new SQLTransactionRollbackException(
        "Deadlock found when trying to get lock; try restarting transaction", "40001", 1213)));
    assertEquals(SqlErrors.LOCK_WAIT_TIMEOUT, SqlErrors.statusOf(new SQLException(
        "Lock wait timeout exceeded; try restarting transaction", "HY000", 1205)));
    assertEquals(SqlErrors.DUPLICATE_KEY, SqlErrors.statusOf(
        new SQLIntegrityConstraintViolationException("Duplicate entry 'k' for key 'PRIMARY'",
            "23000", 1062)));
    assertEquals(SqlErrors.TABLE_NOT_FOUND, SqlErrors.statusOf(new SQLException(
        "Table 'ycsb.t' doesn't exist", "42S02", 1146)));
    assertEquals(SqlErrors.UNKNOWN_COLUMN, SqlErrors.statusOf(new SQLException(
        "Unknown column 'field7' in 'field list'", "42S22", 1054)));
    assertEquals(Status.FORBIDDEN, SqlErrors.statusOf(new SQLException(
        "Access denied for user 'bench'@'127.0.0.1'", "28000", 1045)));
  }

  @Test
  void aLostConnectionIsToldFromAnExhaustedPool() {
    assertEquals(SqlErrors.CONNECTION_LOST, SqlErrors.statusOf(
        new SQLNonTransientConnectionException("Socket error", "08000", 0)));
    // HikariCP: the timeout carries the last connection failure as its cause
    assertEquals(SqlErrors.CONNECTION_LOST, SqlErrors.statusOf(new SQLTransientConnectionException(
        "ycsb-jdbc - Connection is not available, request timed out after 10000ms.", null,
        new SQLNonTransientConnectionException("Connection refused", "08000", 0))));
    assertEquals(SqlErrors.POOL_TIMEOUT, SqlErrors.statusOf(new SQLTransientConnectionException(
        "ycsb-jdbc - Connection is not available, request timed out after 10000ms.")));
    assertEquals(SqlErrors.DEADLOCK, SqlErrors.statusOf(new RuntimeException("wrapped",
        new SQLException("Deadlock found", "40001", 1213))));
    assertEquals(Status.ERROR, SqlErrors.statusOf(new SQLException("something else", "HY000",
        1)));
  }
}
