package org.ycsbpack.common;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Test support: which main class of a module names which other, read from the sources (every
 * simple name of one of the module's classes used in code, imports included, comments and string
 * literals not), and the circles in that graph. A module whose classes form layers (the YCSB
 * {@code DB} class on top, its connection and settings below, the server probe's classes beside
 * them, the values they share at the bottom) has none: a lower class that reaches up to a higher
 * one for a constant or a helper closes a circle.
 */
public final class ClassReferences {
  private static final Pattern NAME = Pattern.compile("\\b[A-Z][A-Za-z0-9_]*\\b");

  private ClassReferences() {
  }

  /** Class (file) name -> the module's other classes it names, for every .java under root. */
  public static Map<String, Set<String>> graph(Path root) {
    Map<String, String> code = new TreeMap<>();
    try (Stream<Path> files = Files.walk(root)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".java")).collect(
          Collectors.toList())) {
        String name = f.getFileName().toString().replaceFirst("\\.java$", "");
        if (code.put(name, new String(Files.readAllBytes(f), StandardCharsets.UTF_8)) != null) {
          throw new IllegalArgumentException("two classes named " + name + " under " + root
              + ": simple names cannot tell them apart; rename one");
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the sources under " + root, e);
    }
    return graph(code);
  }

  /** As {@link #graph(Path)}, from class name -> source text. */
  public static Map<String, Set<String>> graph(Map<String, String> sources) {
    Map<String, Set<String>> refs = new TreeMap<>();
    for (Map.Entry<String, String> e : sources.entrySet()) {
      Set<String> named = new TreeSet<>();
      Matcher m = NAME.matcher(withoutCommentsAndLiterals(e.getValue()));
      while (m.find()) {
        if (sources.containsKey(m.group()) && !m.group().equals(e.getKey())) {
          named.add(m.group());
        }
      }
      refs.put(e.getKey(), named);
    }
    return refs;
  }

  /**
   * One circle per group of classes that reach each other ("A -> B -> A", followed by the whole
   * group when it holds more classes than that circle), sorted; empty when the classes form
   * layers.
   */
  public static List<String> circles(Map<String, Set<String>> graph) {
    List<String> found = new ArrayList<>();
    for (Set<String> group : stronglyConnected(graph)) {
      String circle = oneCircle(graph, group);
      boolean whole = circle.split(" -> ").length - 1 == group.size();
      found.add(whole ? circle : circle + " (all of " + group + " reach each other)");
    }
    found.sort(null);
    return found;
  }

  /**
   * Null when the main classes under {@code root} form layers, otherwise a message naming every
   * circle and what to do.
   */
  public static String circlesMessage(Path root) {
    List<String> circles = circles(graph(root));
    if (circles.isEmpty()) {
      return null;
    }
    return "the classes under " + root + " refer to each other in " + circles.size()
        + " circle(s): " + String.join("; ", circles) + ". A lower class must not name a higher "
        + "one: move the constant or helper down to the class it belongs to, pass a value or an "
        + "interface down, or split the class";
  }

  /** Tarjan's algorithm: the groups of two or more classes that reach each other. */
  private static List<Set<String>> stronglyConnected(Map<String, Set<String>> graph) {
    Map<String, Integer> index = new HashMap<>();
    Map<String, Integer> low = new HashMap<>();
    Deque<String> stack = new ArrayDeque<>();
    Set<String> onStack = new TreeSet<>();
    List<Set<String>> groups = new ArrayList<>();
    for (String start : graph.keySet()) {
      if (!index.containsKey(start)) {
        visit(start, graph, index, low, stack, onStack, groups);
      }
    }
    return groups;
  }

  private static void visit(String v, Map<String, Set<String>> graph, Map<String, Integer> index,
                            Map<String, Integer> low, Deque<String> stack, Set<String> onStack,
                            List<Set<String>> groups) {
    index.put(v, index.size());
    low.put(v, index.get(v));
    stack.push(v);
    onStack.add(v);
    for (String w : graph.getOrDefault(v, Set.of())) {
      if (!index.containsKey(w)) {
        visit(w, graph, index, low, stack, onStack, groups);
        low.put(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.contains(w)) {
        low.put(v, Math.min(low.get(v), index.get(w)));
      }
    }
    if (low.get(v).equals(index.get(v))) {
      Set<String> group = new TreeSet<>();
      String w;
      do {
        w = stack.pop();
        onStack.remove(w);
        group.add(w);
      } while (!w.equals(v));
      if (group.size() > 1) {
        groups.add(group);
      }
    }
  }

  /** The shortest way from the group's first class back to itself, inside the group. */
  private static String oneCircle(Map<String, Set<String>> graph, Set<String> group) {
    String start = group.iterator().next();
    Map<String, String> cameFrom = new HashMap<>();
    Deque<String> queue = new ArrayDeque<>(List.of(start));
    while (!queue.isEmpty()) {
      String v = queue.poll();
      for (String w : graph.get(v)) {
        if (w.equals(start)) {
          List<String> path = new ArrayList<>(List.of(start));
          for (String at = v; !at.equals(start); at = cameFrom.get(at)) {
            path.add(1, at);
          }
          path.add(start);
          return String.join(" -> ", path);
        }
        if (group.contains(w) && !cameFrom.containsKey(w)) {
          cameFrom.put(w, v);
          queue.add(w);
        }
      }
    }
    throw new IllegalStateException("no circle through " + start + " in " + group);
  }

  /** The code alone: comments, string, text-block and char literals replaced by a space. */
  static String withoutCommentsAndLiterals(String java) {
    StringBuilder out = new StringBuilder(java.length());
    int i = 0;
    int n = java.length();
    while (i < n) {
      char c = java.charAt(i);
      if (java.startsWith("//", i)) {
        i = java.indexOf('\n', i) < 0 ? n : java.indexOf('\n', i);
      } else if (java.startsWith("/*", i)) {
        i = java.indexOf("*/", i + 2) < 0 ? n : java.indexOf("*/", i + 2) + 2;
        out.append(' ');
      } else if (java.startsWith("\"\"\"", i)) {
        i = java.indexOf("\"\"\"", i + 3) < 0 ? n : java.indexOf("\"\"\"", i + 3) + 3;
        out.append(' ');
      } else if (c == '"' || c == '\'') {
        i++;
        while (i < n && java.charAt(i) != c) {
          i += java.charAt(i) == '\\' ? 2 : 1;
        }
        i++;
        out.append(' ');
      } else {
        out.append(c);
        i++;
      }
    }
    return out.toString();
  }
}
