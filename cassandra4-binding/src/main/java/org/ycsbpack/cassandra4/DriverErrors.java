package org.ycsbpack.cassandra4;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.NoNodeAvailableException;
import com.datastax.oss.driver.api.core.connection.BusyConnectionException;
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
import java.util.List;
import java.util.Map;
import site.ycsb.Status;

/**
 * Maps java-driver failures to distinct YCSB statuses, so {@code Return=} lines tell an
 * unavailable replica set from a server-side timeout, a client-side timeout or overload.
 */
final class DriverErrors {
  static final Status UNAVAILABLE = new Status("UNAVAILABLE",
      "Not enough live replicas for the consistency level.");
  static final Status READ_TIMEOUT = new Status("READ_TIMEOUT",
      "Replicas did not answer a read in time (server side).");
  static final Status WRITE_TIMEOUT = new Status("WRITE_TIMEOUT",
      "Replicas did not acknowledge a write in time (server side).");
  static final Status CLIENT_TIMEOUT = new Status("CLIENT_TIMEOUT",
      "No response within cassandra.requesttimeoutms (client side).");
  static final Status OVERLOADED = new Status("OVERLOADED",
      "The coordinator or the client connections are overloaded.");
  static final Status INVALID_QUERY = new Status("INVALID_QUERY",
      "The server rejected the query (schema or syntax).");
  static final Status NO_NODE_AVAILABLE = new Status("NO_NODE_AVAILABLE",
      "No node could be reached for the request.");
  static final Status READ_FAILURE = new Status("READ_FAILURE", "A replica failed the read.");
  static final Status WRITE_FAILURE = new Status("WRITE_FAILURE", "A replica failed the write.");
  static final Status SERVER_ERROR = new Status("SERVER_ERROR", "The server reported an error.");

  private DriverErrors() {
  }

  static Status statusOf(Throwable e) {
    if (e instanceof UnavailableException) {
      return UNAVAILABLE;
    }
    if (e instanceof ReadTimeoutException) {
      return READ_TIMEOUT;
    }
    if (e instanceof WriteTimeoutException) {
      return WRITE_TIMEOUT;
    }
    if (e instanceof DriverTimeoutException) {
      return CLIENT_TIMEOUT;
    }
    if (e instanceof OverloadedException || e instanceof BusyConnectionException) {
      return OVERLOADED;
    }
    if (e instanceof InvalidQueryException || e instanceof SyntaxError) {
      return INVALID_QUERY;
    }
    if (e instanceof ReadFailureException) {
      return READ_FAILURE;
    }
    if (e instanceof WriteFailureException) {
      return WRITE_FAILURE;
    }
    if (e instanceof UnauthorizedException) {
      return Status.FORBIDDEN;
    }
    if (e instanceof ServerError) {
      return SERVER_ERROR;
    }
    if (e instanceof NoNodeAvailableException) {
      return NO_NODE_AVAILABLE;
    }
    if (e instanceof AllNodesFailedException) {
      // every tried node failed: report the cause the nodes agree on, when there is one
      Status common = null;
      for (Map.Entry<?, List<Throwable>> entry
          : ((AllNodesFailedException) e).getAllErrors().entrySet()) {
        for (Throwable t : entry.getValue()) {
          Status s = statusOf(t);
          if (common == null) {
            common = s;
          } else if (!common.equals(s)) {
            return NO_NODE_AVAILABLE;
          }
        }
      }
      return common == null || common == Status.ERROR ? NO_NODE_AVAILABLE : common;
    }
    return Status.ERROR;
  }
}
