package org.ycsbpack.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Deletes expired list elements: MySQL has no TTL, so rows whose {@code expires_ms} has passed
 * stay until deleted (reads already skip them). One daemon thread per client JVM deletes them
 * every {@code jdbc.listpurgeseconds}, 1,000 rows per statement through the {@code expiry}
 * index, in READ COMMITTED so it takes no gap locks that would block concurrent appends.
 */
final class ExpiredElementPurger {
  static final int ROWS_PER_DELETE = 1000;
  private final ScheduledExecutorService executor;

  private ExpiredElementPurger(ScheduledExecutorService executor) {
    this.executor = executor;
  }

  static ExpiredElementPurger start(HikariDataSource pool, String table, int seconds) {
    ScheduledExecutorService ex = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "jdbc-list-purge");
      t.setDaemon(true);
      return t;
    });
    ExpiredElementPurger p = new ExpiredElementPurger(ex);
    ex.scheduleWithFixedDelay(() -> purge(pool, table), seconds, seconds, TimeUnit.SECONDS);
    return p;
  }

  /** Deletes every element expired by now; returns how many. */
  static long purge(HikariDataSource pool, String table) {
    long total = 0;
    try (Connection c = pool.getConnection()) {
      c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
      try (PreparedStatement st = c.prepareStatement("DELETE FROM " + table
          + " WHERE expires_ms <= ? LIMIT " + ROWS_PER_DELETE)) {
        int n;
        do {
          st.setLong(1, System.currentTimeMillis());
          n = st.executeUpdate();
          total += n;
        } while (n == ROWS_PER_DELETE && !Thread.currentThread().isInterrupted());
      }
    } catch (SQLException e) {
      // the next round tries again; a lasting problem shows in the operations' own statuses
      System.err.println("WARN jdbc: purging expired elements of " + table + " failed: "
          + SqlErrors.firstLine(e));
    }
    return total;
  }

  void stop() {
    executor.shutdownNow();
  }
}
