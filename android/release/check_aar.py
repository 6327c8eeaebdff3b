"""Checks the AAR and POM script/build-android-aar wrote into a Maven repository (script/test-android
runs it): the AAR's layout, its manifest, that classes.jar holds the SDK's classes compiled with the
Android constants' real values, the Android members they call, the POM's coordinates, and that the
Android guide shows this version.

  python3 android/release/check_aar.py REPOSITORY
"""
import io
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MODULE = os.path.join(ROOT, "android", "notibase")
ANDROID = "{http://schemas.android.com/apk/res/android}"
POM = "{http://maven.apache.org/POM/4.0.0}"
GROUP, ARTIFACT = "dev.notibase", "notibase-android"
problems = []


def check(condition, message):
    if not condition:
        problems.append(message)
    return condition


def read(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as file:
        return file.read()


def gradle(setting):
    return re.search(rf'^\s*{setting} = "?([^"\n]+)"?$', read("android/notibase/build.gradle.kts"), re.M).group(1)


def javap(classes, *arguments):
    return subprocess.run(["javap", "-cp", classes, *arguments], check=True, capture_output=True, text=True).stdout


def main(repository):
    version = re.search(r'static let current = "([^"]+)"', read("Sources/NotibaseCore/Version.swift")).group(1)
    directory = os.path.join(repository, *GROUP.split("."), ARTIFACT, version)
    aar_path = os.path.join(directory, f"{ARTIFACT}-{version}.aar")
    if not check(os.path.isfile(aar_path), f"no {aar_path}"):
        return

    # The layout Android documents for an AAR, and nothing else.
    with zipfile.ZipFile(aar_path) as aar:
        names = set(aar.namelist())
        check(names == {"AndroidManifest.xml", "classes.jar", "res/", "R.txt", "proguard.txt",
                        "META-INF/com/android/build/gradle/aar-metadata.properties"}, f"the AAR holds {sorted(names)}")
        manifest = ElementTree.fromstring(aar.read("AndroidManifest.xml"))
        classes_jar = aar.read("classes.jar")
        check(aar.read("R.txt") == b"", "R.txt is not empty, but the SDK has no resources")
        check(aar.read("proguard.txt").decode() == read("android/notibase/consumer-rules.pro"), "proguard.txt is not consumer-rules.pro")
        metadata = aar.read("META-INF/com/android/build/gradle/aar-metadata.properties").decode()
        check("aarFormatVersion=1.0\n" in metadata and "aarMetadataVersion=1.0\n" in metadata, f"aar-metadata.properties: {metadata}")

    # The manifest: the namespace as its package, the minimum SDK, the module's components.
    check(manifest.get("package") == gradle("namespace"), f"the manifest's package is {manifest.get('package')}, not the namespace {gradle('namespace')}")
    uses_sdk = manifest.find("uses-sdk")
    check(uses_sdk is not None and uses_sdk.get(ANDROID + "minSdkVersion") == gradle("minSdk"), "the manifest's uses-sdk is not the module's minSdk")
    permissions = {element.get(ANDROID + "name") for element in manifest.iter("uses-permission")}
    check(permissions == {"android.permission.INTERNET", "android.permission.POST_NOTIFICATIONS",
                           "android.permission.POST_PROMOTED_NOTIFICATIONS"}, f"permissions {permissions}")
    components = [element.get(ANDROID + "name") for element in manifest.find("application")]

    with tempfile.TemporaryDirectory() as work:
        with zipfile.ZipFile(io.BytesIO(classes_jar)) as jar:
            entries = [name for name in jar.namelist() if not name.endswith("/")]
            jar.extractall(work)
        # Every source file's class, and only the SDK's classes (the stand-in android.jar stays out).
        sources = sorted(os.path.relpath(os.path.join(folder, name), os.path.join(MODULE, "src/main/java"))[:-len(".java")] + ".class"
                         for folder, _, files in os.walk(os.path.join(MODULE, "src/main/java")) for name in files if name.endswith(".java"))
        missing = [name for name in sources if name not in entries]
        check(not missing, f"classes.jar lacks {missing}")
        check(len(sources) > 40, f"only {len(sources)} source files were found")
        strays = [name for name in entries if not (name.startswith("dev/notibase/") and name.endswith(".class"))]
        check(not strays, f"classes.jar holds what is not the SDK's: {strays[:5]}")
        for component in components:
            check(component.replace(".", "/") + ".class" in entries, f"the manifest names {component}, which classes.jar lacks")
        for rule in re.findall(r"^-keep class (\S+)$", read("android/notibase/consumer-rules.pro"), re.M):
            check(rule.replace(".", "/") + ".class" in entries, f"proguard.txt keeps {rule}, which classes.jar lacks")
        # Java 17 class files at most (what the Android Gradle plugin's D8 reads).
        majors = {int.from_bytes(open(os.path.join(work, name), "rb").read()[6:8], "big") for name in entries}
        check(max(majors) <= 61, f"class file versions {majors}")

        # The Android constants are Android's, not the stand-in's dummies: SDK_INT is read on the
        # device, and the PendingIntent flags have their real values.
        for name in ("AndroidNotifier", "AndroidLiveNotifier", "NotificationIntents"):
            check("Field android/os/Build$VERSION.SDK_INT:I" in javap(work, "-c", "-p", f"dev.notibase.android.{name}"),
                  f"{name} does not read Build.VERSION.SDK_INT on the device (folded at compile time)")
        intents = javap(work, "-c", "-p", "dev.notibase.android.NotificationIntents")
        for value, name in [(67108864, "FLAG_IMMUTABLE"), (33554432, "FLAG_MUTABLE"), (134217728, "FLAG_UPDATE_CURRENT")]:
            check(f"// int {value}" in intents, f"NotificationIntents does not use PendingIntent.{name}'s real value {value}")
        check("Field android/os/Build$VERSION.SDK_INT:I" in javap(work, "-c", "-p", "dev.notibase.Notibase"), "Notibase folds Build.VERSION.SDK_INT")

        # The version the SDK registers and names in its User-Agent.
        constants = javap(work, "-constants", "dev.notibase.core.SDKVersion")
        check(f'CURRENT = "{version}"' in constants, f"dev.notibase.core.SDKVersion.CURRENT is not {version}")
        check(f'USER_AGENT = "Notibase-Android/{version}"' in constants, f"the User-Agent is not Notibase-Android/{version}")

        # Every Android member the classes call was checked against Android's API reference (the
        # stand-in's signatures are inferred; a wrong one would fail on the phone, not here).
        pool = javap(work, "-v", *[name[:-len(".class")].replace("/", ".") for name in entries])
        used = {line.split("// ", 1)[1].replace('"', "") for line in pool.splitlines()
                if re.match(r"\s+#\d+ = (Fieldref|Methodref|InterfaceMethodref)\s", line)}
        used = {member for member in used if re.match(r"(android|dalvik|org/json|org/xmlpull|org/apache/http)/", member)}
        listed = {line.strip() for line in read("android/release/android-api-used.txt").splitlines() if line.strip() and not line.startswith("#")}
        check(not used - listed, "classes.jar calls Android members not in android/release/android-api-used.txt (check each "
              "against developer.android.com/reference, then add it):\n    " + "\n    ".join(sorted(used - listed)))
        check(not listed - used, "android/release/android-api-used.txt lists members no longer called:\n    " + "\n    ".join(sorted(listed - used)))

    # The POM: the coordinates, the packaging, no dependencies.
    pom = ElementTree.parse(os.path.join(directory, f"{ARTIFACT}-{version}.pom")).getroot()
    coordinates = tuple(pom.findtext(POM + key) for key in ("groupId", "artifactId", "version", "packaging"))
    check(coordinates == (GROUP, ARTIFACT, version, "aar"), f"the POM says {coordinates}")
    check(pom.find(POM + "dependencies") is None, "the POM has dependencies, but the SDK has none")
    metadata = ElementTree.parse(os.path.join(repository, *GROUP.split("."), ARTIFACT, "maven-metadata.xml")).getroot()
    check(metadata.findtext("groupId") == GROUP and metadata.findtext("artifactId") == ARTIFACT, "maven-metadata.xml names another artifact")
    check(version in [element.text for element in metadata.iter("version")], f"maven-metadata.xml does not list {version}")

    # The Android guide shows this release: its dependency line, its repository path, its user agent.
    guide = read("docs/android-guide.md")
    shown = (re.findall(r'"dev\.notibase:notibase-android:([^"]+)"', guide) + re.findall(r"notibase-android/([^/\s`]+)/", guide)
             + re.findall(r"Notibase-Android/([0-9][^\s`)]*)", guide))
    check(shown and set(shown) == {version}, f"docs/android-guide.md shows the versions {sorted(set(shown))}, not {version}")
    check('implementation("dev.notibase:notibase-android:' in guide, "docs/android-guide.md has no dependency line")


if __name__ == "__main__":
    main(os.path.abspath(sys.argv[1]))
    for problem in problems:
        print(f"check_aar: FAIL {problem}", file=sys.stderr)
    if problems:
        sys.exit(1)
    print("check_aar: the AAR, its classes and the POM are as they should be")
