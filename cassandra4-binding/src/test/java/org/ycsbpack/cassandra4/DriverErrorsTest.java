package org.ycsbpack.cassandra4;

import static org.junit.jupiter.api.Assertions.assertSame;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.NoNodeAvailableException;
import com.datastax.oss.driver.api.core.connection.BusyConnectionException;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.servererrors.DefaultWriteType;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import com.datastax.oss.driver.api.core.servererrors.OverloadedException;
import com.datastax.oss.driver.api.core.servererrors.ReadFailureException;
import com.datastax.oss.driver.api.core.servererrors.ReadTimeoutException;
import com.datastax.oss.driver.api.core.servererrors.ServerError;
import com.datastax.oss.driver.api.core.servererrors.SyntaxError;
import com.datastax.oss.driver.api.core.servererrors.UnauthorizedException;
import com.datastax.oss.driver.api.core.servererrors.UnavailableException;
import com.datastax.oss.driver.api.core.servererrors.WriteFailureException;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;
import java.lang.reflect.Proxy;
import java.util.AbstractMap.SimpleEntry;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import site.ycsb.Status;

/** Each java-driver failure maps to the status that names its cause (no server needed). */
class DriverErrorsTest {
  private static final DefaultConsistencyLevel ALL = DefaultConsistencyLevel.ALL;

  /** A node of the cluster as the driver's exceptions carry it; only its identity matters. */
  private static Node node(String name) {
    return (Node) Proxy.newProxyInstance(Node.class.getClassLoader(), new Class<?>[] {Node.class},
        (proxy, method, args) -> {
          switch (method.getName()) {
            case "toString":
              return name;
            case "hashCode":
              return System.identityHashCode(proxy);
            case "equals":
              return proxy == args[0];
            default:
              return null;
          }
        });
  }

  private static UnavailableException unavailable() {
    return new UnavailableException(node("n1"), ALL, 3, 1);
  }

  private static ReadTimeoutException readTimeout() {
    return new ReadTimeoutException(node("n1"), ALL, 1, 3, true);
  }

  /** Every node the driver tried failed, node i with {@code errors[i]}. */
  private static AllNodesFailedException allNodesFailed(Throwable... errors) {
    List<Map.Entry<Node, Throwable>> tried = new ArrayList<>();
    for (int i = 0; i < errors.length; i++) {
      tried.add(new SimpleEntry<>(node("n" + i), errors[i]));
    }
    return AllNodesFailedException.fromErrors(tried);
  }

  @Test
  void serverSideFailuresKeepTheirCause() {
    assertSame(DriverErrors.UNAVAILABLE, DriverErrors.statusOf(unavailable()));
    assertSame(DriverErrors.READ_TIMEOUT, DriverErrors.statusOf(readTimeout()));
    assertSame(DriverErrors.WRITE_TIMEOUT, DriverErrors.statusOf(
        new WriteTimeoutException(node("n1"), ALL, 1, 3, DefaultWriteType.SIMPLE)));
    assertSame(DriverErrors.READ_FAILURE, DriverErrors.statusOf(
        new ReadFailureException(node("n1"), ALL, 1, 3, 1, true, Collections.emptyMap())));
    assertSame(DriverErrors.WRITE_FAILURE, DriverErrors.statusOf(new WriteFailureException(
        node("n1"), ALL, 1, 3, DefaultWriteType.BATCH, 1, Collections.emptyMap())));
    assertSame(DriverErrors.SERVER_ERROR, DriverErrors.statusOf(
        new ServerError(node("n1"), "boom")));
    assertSame(Status.FORBIDDEN, DriverErrors.statusOf(
        new UnauthorizedException(node("n1"), "no SELECT permission")));
  }

  @Test
  void aRejectedStatementIsAnInvalidQuery() {
    assertSame(DriverErrors.INVALID_QUERY, DriverErrors.statusOf(
        new InvalidQueryException(node("n1"), "Undefined column name field7")));
    assertSame(DriverErrors.INVALID_QUERY, DriverErrors.statusOf(
        new SyntaxError(node("n1"), "line 1:7 no viable alternative")));
  }

  @Test
  void clientSideTimeoutAndOverloadAreToldApart() {
    assertSame(DriverErrors.CLIENT_TIMEOUT, DriverErrors.statusOf(
        new DriverTimeoutException("Query timed out after PT2S")));
    assertSame(DriverErrors.OVERLOADED, DriverErrors.statusOf(new OverloadedException(node("n1"))));
    assertSame(DriverErrors.OVERLOADED, DriverErrors.statusOf(new BusyConnectionException(1024)));
  }

  @Test
  void noNodeToTryIsNoNodeAvailableAndAnythingElseAnError() {
    assertSame(DriverErrors.NO_NODE_AVAILABLE, DriverErrors.statusOf(
        new NoNodeAvailableException()));
    assertSame(Status.ERROR, DriverErrors.statusOf(new IllegalStateException("closed")));
  }

  @Test
  void nodesThatAllFailedForOneCauseAreReportedUnderThatCause() {
    assertSame(DriverErrors.UNAVAILABLE, DriverErrors.statusOf(
        allNodesFailed(unavailable(), unavailable(), unavailable())));
    assertSame(DriverErrors.READ_TIMEOUT, DriverErrors.statusOf(allNodesFailed(readTimeout())));
  }

  @Test
  void nodesThatFailedForDifferentCausesAreNoNodeAvailable() {
    assertSame(DriverErrors.NO_NODE_AVAILABLE, DriverErrors.statusOf(
        allNodesFailed(unavailable(), readTimeout())));
  }

  @Test
  void nodesThatFailedForUnknownReasonsOrNoneAreNoNodeAvailable() {
    assertSame(DriverErrors.NO_NODE_AVAILABLE, DriverErrors.statusOf(
        allNodesFailed(new IllegalStateException("a"), new IllegalStateException("b"))));
    assertSame(DriverErrors.NO_NODE_AVAILABLE, DriverErrors.statusOf(allNodesFailed()));
  }
}
