package org.ycsbpack.cassandra4;

import java.util.LinkedHashMap;
import java.util.Map;
import site.ycsb.DBException;

/**
 * Keyspace replication from {@code cassandra.replication}: {@code SimpleStrategy:3} or
 * {@code NetworkTopologyStrategy:datacenter1=3,dc2=2}, rendered as the CQL map literal.
 */
final class Replication {
  private final String cql;

  private Replication(String cql) {
    this.cql = cql;
  }

  String cql() {
    return cql;
  }

  static Replication parse(String spec) throws DBException {
    String s = spec.trim();
    int colon = s.indexOf(':');
    String strategy = colon < 0 ? s : s.substring(0, colon).trim();
    String args = colon < 0 ? "" : s.substring(colon + 1).trim();
    if ("SimpleStrategy".equalsIgnoreCase(strategy)) {
      int rf = factor(spec, args);
      return new Replication("{'class': 'SimpleStrategy', 'replication_factor': " + rf + "}");
    }
    if ("NetworkTopologyStrategy".equalsIgnoreCase(strategy)) {
      Map<String, Integer> perDc = new LinkedHashMap<>();
      for (String part : args.split(",")) {
        int eq = part.indexOf('=');
        if (eq <= 0) {
          throw invalid(spec);
        }
        String dc = part.substring(0, eq).trim();
        if (!dc.matches("[A-Za-z0-9_.-]+")) {
          throw invalid(spec);
        }
        perDc.put(dc, factor(spec, part.substring(eq + 1).trim()));
      }
      StringBuilder sb = new StringBuilder("{'class': 'NetworkTopologyStrategy'");
      for (Map.Entry<String, Integer> e : perDc.entrySet()) {
        sb.append(", '").append(e.getKey()).append("': ").append(e.getValue());
      }
      return new Replication(sb.append('}').toString());
    }
    throw invalid(spec);
  }

  private static int factor(String spec, String n) throws DBException {
    try {
      int rf = Integer.parseInt(n);
      if (rf >= 1 && rf <= 100) {
        return rf;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw invalid(spec);
  }

  private static DBException invalid(String spec) {
    return new DBException("property " + CassandraProperties.REPLICATION.name() + "='" + spec
        + "' is not valid: expected SimpleStrategy:N or NetworkTopologyStrategy:dc=N[,dc=N] "
        + "with N from 1 to 100");
  }
}
