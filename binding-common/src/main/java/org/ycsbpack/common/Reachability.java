package org.ycsbpack.common;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NoRouteToHostException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;

/**
 * Says in plain words why a server address cannot be reached, after a client library failed
 * with its own wording (a closed channel, a retry timeout): a name that does not resolve, a
 * refused connection, or no answer at all. Null when a TCP connection opens.
 */
public final class Reachability {
  private Reachability() {
  }

  /** A host name that does not resolve, as a sentence naming {@code property}; else null. */
  public static String unresolved(String host, String property) {
    try {
      InetAddress.getByName(host);
      return null;
    } catch (UnknownHostException e) {
      return "property " + property + ": host '" + host + "' does not resolve to an address; "
          + "check the name or use an IP address";
    }
  }

  /** Why no TCP connection to host:port opens within timeoutMs, or null when one opens. */
  public static String problem(String host, int port, int timeoutMs) {
    String where = host + ":" + port;
    InetSocketAddress address = new InetSocketAddress(host, port);
    if (address.isUnresolved()) {
      return "host '" + host + "' does not resolve to an address";
    }
    try (Socket s = new Socket()) {
      s.connect(address, timeoutMs);
      return null;
    } catch (ConnectException e) {
      return "connection refused at " + where + ": nothing listens there";
    } catch (SocketTimeoutException e) {
      return "no answer from " + where + " within " + timeoutMs + " ms (host down or the port "
          + "filtered)";
    } catch (NoRouteToHostException e) {
      return "no route to " + where;
    } catch (IOException e) {
      return "cannot reach " + where + ": " + e.getMessage();
    }
  }
}
