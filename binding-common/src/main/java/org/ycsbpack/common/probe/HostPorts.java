package org.ycsbpack.common.probe;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** A property holding {@code host:port,host:port,...} (the probe's JMX addresses). */
public final class HostPorts {
  private HostPorts() {
  }

  /**
   * The addresses of {@code value}, none when it is unset or blank; an IllegalArgumentException
   * of one sentence naming {@code property} when an entry is not host:port.
   */
  public static List<InetSocketAddress> parse(String property, String value) {
    if (value == null || value.trim().isEmpty()) {
      return Collections.emptyList();
    }
    List<InetSocketAddress> out = new ArrayList<>();
    for (String part : value.split(",")) {
      String p = part.trim();
      int colon = p.lastIndexOf(':');
      int port = -1;
      if (colon > 0 && colon == p.indexOf(':')) {
        try {
          port = Integer.parseInt(p.substring(colon + 1));
        } catch (NumberFormatException e) {
          // reported below
        }
      }
      if (port < 1 || port > 65535) {
        throw new IllegalArgumentException("property " + property + "='" + value + "': '" + p
            + "' is not host:port; give one host:port per node, comma-separated (e.g. "
            + "127.0.0.1:7199,127.0.0.1:7299)");
      }
      out.add(InetSocketAddress.createUnresolved(p.substring(0, colon), port));
    }
    return out;
  }
}
