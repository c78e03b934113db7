package org.ycsbpack.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Properties;
import org.junit.jupiter.api.Test;
import site.ycsb.DBException;

class JdbcSettingsTest {
  private static JdbcSettings settings(String... kv) throws DBException {
    Properties p = new Properties();
    for (int i = 0; i < kv.length; i += 2) {
      p.setProperty(kv[i], kv[i + 1]);
    }
    return new JdbcSettings(p);
  }

  @Test
  void theUrlSchemeChoosesTheDriverUnlessOneIsNamed() throws DBException {
    assertEquals("org.mariadb.jdbc.Driver", settings().driver);
    assertEquals("com.mysql.cj.jdbc.Driver",
        settings("db.url", "jdbc:mysql://db:3306/ycsb").driver);
    assertEquals("my.Driver", settings("db.url", "jdbc:mysql://db/ycsb", "db.driver",
        "my.Driver").driver);
  }

  @Test
  void thePoolHasOneConnectionPerClientThreadByDefault() throws DBException {
    assertEquals(1, settings().poolSize);
    assertEquals(16, settings("threadcount", "16").poolSize);
    assertEquals(4, settings("threadcount", "16", "jdbc.poolsize", "4").poolSize);
  }

  @Test
  void passwordsInUrlsAreMaskedWhenPrinted() {
    String masked = JdbcSettings.masked(
        "jdbc:mysql://bench:s3cret@db:3306/ycsb?user=bench&password=s3cret&useSSL=false");
    assertFalse(masked.contains("s3cret"), masked);
    assertTrue(masked.contains("useSSL=false"), masked);
  }

  @Test
  void unsupportedYcsbJdbcSettingsAreRefusedWithWhatToDo() {
    DBException e = assertThrows(DBException.class, () -> settings("jdbc.autocommit", "false"));
    assertTrue(e.getMessage().startsWith("property jdbc.autocommit=false is not supported"),
        e.getMessage());
    e = assertThrows(DBException.class, () -> settings("table", "user;table"));
    assertTrue(e.getMessage().contains("is not a valid SQL name"), e.getMessage());
  }
}
