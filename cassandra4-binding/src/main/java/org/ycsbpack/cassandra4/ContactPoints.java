package org.ycsbpack.cassandra4;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import site.ycsb.DBException;

/** Parses {@code hosts} ({@code host} or {@code host:port}, comma-separated) into addresses. */
final class ContactPoints {
  private ContactPoints() {
  }

  static List<InetSocketAddress> parse(List<String> hosts, int defaultPort) throws DBException {
    if (hosts.isEmpty()) {
      throw new DBException("property hosts is empty: give at least one Cassandra node, "
          + "e.g. -p hosts=127.0.0.1");
    }
    List<InetSocketAddress> out = new ArrayList<>();
    for (String h : hosts) {
      String host = h;
      int port = defaultPort;
      int colon = h.lastIndexOf(':');
      // host:port, but leave a bare IPv6 address (several colons) alone
      if (colon > 0 && h.indexOf(':') == colon) {
        host = h.substring(0, colon);
        try {
          port = Integer.parseInt(h.substring(colon + 1));
        } catch (NumberFormatException e) {
          port = -1;
        }
        if (port < 1 || port > 65535) {
          throw new DBException("property hosts: '" + h + "' has no valid port (1-65535)");
        }
      }
      InetSocketAddress address = new InetSocketAddress(host, port);
      if (address.isUnresolved()) {
        throw new DBException("property hosts: host '" + host + "' does not resolve to an "
            + "address; check the name or use an IP address");
      }
      out.add(address);
    }
    return out;
  }
}
