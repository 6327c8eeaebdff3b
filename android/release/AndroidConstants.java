import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.Trees;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * The Android constants the SDK's sources use, given their real values, so the classes shipped in
 * the AAR are compiled with them.
 *
 * <p>The stand-in android.jar (../shared/android-sdk) gives every constant a dummy value, and javac
 * copies a constant's value into the class that uses it: compiled against the stand-in alone,
 * {@code PendingIntent.FLAG_IMMUTABLE} would be 4 on the phone and {@code Build.VERSION.SDK_INT}
 * (a value read on the device, not a constant on Android) would be folded into every
 * {@code if}. This tool attributes the sources against the stand-in, lists every constant of a
 * class-path (Android) class they use, looks each up in a table of real values taken from the
 * Android API reference, and writes a jar of those Android classes with the real values (and no
 * value at all for the fields the table marks {@code runtime}). Put it before the stand-in on the
 * class path. A constant missing from the table fails the build, naming it.
 *
 * <p>Usage: {@code java AndroidConstants.java STUBS.jar TABLE OUT.jar SOURCE.java...}
 */
public final class AndroidConstants {
    public static void main(String[] arguments) throws IOException {
        if (arguments.length < 4) {
            System.err.println("usage: java AndroidConstants.java STUBS.jar TABLE OUT.jar SOURCE.java...");
            System.exit(2);
        }
        Path stubs = Path.of(arguments[0]);
        Map<String, String> table = readTable(Path.of(arguments[1]));
        Map<String, String> used = constantsUsed(stubs, Arrays.asList(arguments).subList(3, arguments.length));
        List<String> missing = new ArrayList<>();
        Map<String, Map<String, String>> byClass = new TreeMap<>();
        for (Map.Entry<String, String> constant : used.entrySet()) {
            String value = table.get(constant.getKey());
            if (value == null) {
                missing.add(constant.getKey() + " (" + constant.getValue() + ")");
                continue;
            }
            int dot = constant.getKey().lastIndexOf('.');
            byClass.computeIfAbsent(constant.getKey().substring(0, dot), k -> new TreeMap<>()).put(constant.getKey().substring(dot + 1), value);
        }
        if (!missing.isEmpty()) {
            System.err.println("AndroidConstants: the SDK uses Android constants that " + arguments[1] + " does not give a real value:");
            for (String name : missing) System.err.println("  " + name);
            System.err.println("Add each with its value from the Android API reference (developer.android.com/reference), or `runtime`.");
            System.exit(1);
        }
        try (ZipFile jar = new ZipFile(stubs.toFile());
                ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(Path.of(arguments[2])))) {
            for (Map.Entry<String, Map<String, String>> patch : byClass.entrySet()) {
                String entry = patch.getKey().replace('.', '/') + ".class";
                ZipEntry original = jar.getEntry(entry);
                if (original == null) throw new IOException(entry + " is not in " + stubs);
                byte[] patched = new ClassFile(jar.getInputStream(original).readAllBytes()).withConstants(patch.getValue(), patch.getKey());
                ZipEntry written = new ZipEntry(entry);
                written.setTime(0);
                out.putNextEntry(written);
                out.write(patched);
                out.closeEntry();
            }
        }
        for (Map.Entry<String, String> constant : used.entrySet()) {
            System.out.println(constant.getKey() + " " + table.get(constant.getKey()));
        }
    }

    /** {@code class.FIELD value} lines; {@code #} starts a comment. */
    static Map<String, String> readTable(Path path) throws IOException {
        Map<String, String> table = new TreeMap<>();
        for (String line : Files.readAllLines(path, StandardCharsets.UTF_8)) {
            String text = line.replaceAll("\\s+#.*$", "").strip();
            if (text.isEmpty() || text.startsWith("#")) continue;
            String[] parts = text.split("\\s+", 2);
            if (parts.length != 2) throw new IOException("a line of " + path + " is not `class.FIELD value`: " + line);
            table.put(parts[0], parts[1]);
        }
        return table;
    }

    /** Every constant of a class-path class the sources use: binary class name + "." + field, and its type. */
    static Map<String, String> constantsUsed(Path stubs, List<String> sources) throws IOException {
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        try (StandardJavaFileManager files = compiler.getStandardFileManager(null, null, StandardCharsets.UTF_8)) {
            JavacTask task = (JavacTask) compiler.getTask(null, files, null,
                    List.of("--release", "17", "-proc:none", "-encoding", "UTF-8", "-cp", stubs.toString()), null,
                    files.getJavaFileObjectsFromStrings(sources));
            Iterable<? extends CompilationUnitTree> units = task.parse();
            task.analyze();
            Trees trees = Trees.instance(task);
            Map<String, String> used = new TreeMap<>();
            TreePathScanner<Void, Void> scanner = new TreePathScanner<>() {
                @Override
                public Void visitIdentifier(IdentifierTree node, Void unused) {
                    note(trees.getElement(getCurrentPath()));
                    return super.visitIdentifier(node, unused);
                }

                @Override
                public Void visitMemberSelect(MemberSelectTree node, Void unused) {
                    note(trees.getElement(getCurrentPath()));
                    return super.visitMemberSelect(node, unused);
                }

                private void note(Element element) {
                    if (element == null || element.getKind() != ElementKind.FIELD) return;
                    if (((VariableElement) element).getConstantValue() == null) return;
                    if (!task.getElements().getModuleOf(element).isUnnamed()) return;  // the JDK's own
                    TypeElement owner = (TypeElement) element.getEnclosingElement();
                    String name = task.getElements().getBinaryName(owner).toString();
                    if (name.startsWith("dev.notibase.")) return;
                    used.put(name + "." + element.getSimpleName(), element.asType().toString());
                }
            };
            for (CompilationUnitTree unit : units) scanner.scan(unit, null);
            return used;
        }
    }

    /** A class file, just enough of it to change the values of its constant fields. */
    static final class ClassFile {
        private final byte[] bytes;

        ClassFile(byte[] bytes) {
            this.bytes = bytes;
        }

        /**
         * The class with each named field's ConstantValue set to the value given (an integer,
         * decimal or 0x hexadecimal; a "quoted string") or removed ({@code runtime}).
         */
        byte[] withConstants(Map<String, String> values, String className) throws IOException {
            DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(bytes));
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            DataOutputStream header = new DataOutputStream(head);
            header.writeInt(in.readInt());
            header.writeShort(in.readUnsignedShort());
            header.writeShort(in.readUnsignedShort());
            int count = in.readUnsignedShort();
            List<byte[]> pool = new ArrayList<>();
            pool.add(null);
            for (int index = 1; index < count; index++) {
                byte[] entry = readConstant(in);
                pool.add(entry);
                if (entry[0] == 5 || entry[0] == 6) {  // a long or double takes two slots
                    pool.add(null);
                    index++;
                }
            }
            ByteArrayOutputStream tail = new ByteArrayOutputStream();
            DataOutputStream body = new DataOutputStream(tail);
            body.writeShort(in.readUnsignedShort());  // access flags
            body.writeShort(in.readUnsignedShort());  // this class
            body.writeShort(in.readUnsignedShort());  // super class
            int interfaces = in.readUnsignedShort();
            body.writeShort(interfaces);
            for (int i = 0; i < interfaces; i++) body.writeShort(in.readUnsignedShort());
            int fields = in.readUnsignedShort();
            body.writeShort(fields);
            TreeSet<String> done = new TreeSet<>();
            for (int i = 0; i < fields; i++) {
                int access = in.readUnsignedShort();
                int name = in.readUnsignedShort();
                int descriptor = in.readUnsignedShort();
                String fieldName = utf8(pool, name);
                String value = values.get(fieldName);
                int attributes = in.readUnsignedShort();
                List<byte[]> kept = new ArrayList<>();
                for (int a = 0; a < attributes; a++) {
                    int attributeName = in.readUnsignedShort();
                    byte[] content = new byte[in.readInt()];
                    in.readFully(content);
                    if (value != null && utf8(pool, attributeName).equals("ConstantValue")) {
                        done.add(fieldName);
                        if (value.equals("runtime")) continue;
                        int constant = addConstant(pool, utf8(pool, descriptor), value, className + "." + fieldName);
                        content = new byte[] {(byte) (constant >> 8), (byte) constant};
                    }
                    ByteArrayOutputStream attribute = new ByteArrayOutputStream();
                    DataOutputStream writer = new DataOutputStream(attribute);
                    writer.writeShort(attributeName);
                    writer.writeInt(content.length);
                    writer.write(content);
                    kept.add(attribute.toByteArray());
                }
                body.writeShort(access);
                body.writeShort(name);
                body.writeShort(descriptor);
                body.writeShort(kept.size());
                for (byte[] attribute : kept) body.write(attribute);
            }
            TreeSet<String> absent = new TreeSet<>(values.keySet());
            absent.removeAll(done);
            if (!absent.isEmpty()) throw new IOException(className + " has no constant field named " + absent);
            in.transferTo(body);  // methods and attributes, unchanged
            header.writeShort(pool.size());
            for (byte[] entry : pool) {
                if (entry != null) header.write(entry);
            }
            header.write(tail.toByteArray());
            return head.toByteArray();
        }

        private static byte[] readConstant(DataInputStream in) throws IOException {
            int tag = in.readUnsignedByte();
            int length;
            switch (tag) {
                case 1: {  // Utf8
                    int size = in.readUnsignedShort();
                    byte[] entry = new byte[3 + size];
                    entry[0] = 1;
                    entry[1] = (byte) (size >> 8);
                    entry[2] = (byte) size;
                    in.readFully(entry, 3, size);
                    return entry;
                }
                case 7: case 8: case 16: case 19: case 20: length = 2; break;  // Class, String, MethodType, Module, Package
                case 15: length = 3; break;  // MethodHandle
                case 3: case 4: case 9: case 10: case 11: case 12: case 17: case 18: length = 4; break;
                case 5: case 6: length = 8; break;  // Long, Double
                default: throw new IOException("unknown constant pool tag " + tag);
            }
            byte[] entry = new byte[1 + length];
            entry[0] = (byte) tag;
            in.readFully(entry, 1, length);
            return entry;
        }

        private static String utf8(List<byte[]> pool, int index) {
            byte[] entry = pool.get(index);
            return new String(entry, 3, entry.length - 3, StandardCharsets.UTF_8);
        }

        /** Appends the constant `value` of a field of type `descriptor` and returns its index. */
        private static int addConstant(List<byte[]> pool, String descriptor, String value, String field) throws IOException {
            ByteArrayOutputStream entry = new ByteArrayOutputStream();
            DataOutputStream writer = new DataOutputStream(entry);
            switch (descriptor) {
                case "I": case "S": case "B": case "C": case "Z":
                    writer.writeByte(3);
                    writer.writeInt((int) parseInteger(value, field));
                    break;
                case "J":
                    writer.writeByte(5);
                    writer.writeLong(parseInteger(value, field));
                    break;
                case "Ljava/lang/String;": {
                    if (value.length() < 2 || !value.startsWith("\"") || !value.endsWith("\"")) {
                        throw new IOException(field + " is a String: its value must be quoted, not " + value);
                    }
                    int text = add(pool, utf8Entry(value.substring(1, value.length() - 1)));
                    writer.writeByte(8);
                    writer.writeShort(text);
                    break;
                }
                default:
                    throw new IOException(field + ": constants of type " + descriptor + " are not supported here");
            }
            int index = add(pool, entry.toByteArray());
            if (descriptor.equals("J")) pool.add(null);
            return index;
        }

        private static long parseInteger(String value, String field) throws IOException {
            try {
                return value.startsWith("0x") ? Long.parseLong(value.substring(2), 16) : Long.parseLong(value);
            } catch (NumberFormatException e) {
                throw new IOException(field + " is an integer, not " + value);
            }
        }

        private static byte[] utf8Entry(String text) throws IOException {
            ByteArrayOutputStream entry = new ByteArrayOutputStream();
            DataOutputStream writer = new DataOutputStream(entry);
            writer.writeByte(1);
            writer.writeUTF(text);
            return entry.toByteArray();
        }

        private static int add(List<byte[]> pool, byte[] entry) {
            pool.add(entry);
            return pool.size() - 1;
        }
    }

    private AndroidConstants() {}
}
