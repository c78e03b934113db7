package org.ycsbpack.common;

import java.io.File;

/**
 * The file the client libraries (java-driver, HBase, ZooKeeper) log to under bin/ycsb, which
 * passes it as slf4j-simple's {@code org.slf4j.simpleLogger.logFile}: their connection-failure
 * stack traces go there, and the one-sentence errors name it.
 */
public final class ClientLog {
  static final String PROPERTY = "org.slf4j.simpleLogger.logFile";

  private ClientLog() {
  }

  /** The log file, or null when the libraries log to System.err/System.out or not at all. */
  public static File file() {
    String name = System.getProperty(PROPERTY);
    if (name == null || name.equals("System.err") || name.equals("System.out")) {
      return null;
    }
    return new File(name);
  }

  /** " (client library log: FILE)" when the libraries wrote something there, else "". */
  public static String mention() {
    File f = file();
    return f != null && f.length() > 0 ? " (client library log: " + f + ")" : "";
  }
}
