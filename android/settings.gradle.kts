// The Notibase Android SDK as a stand-alone Gradle build (an app can also include ":notibase" from
// its own settings). Not built in this repository's CI: see docs/android-guide.md.
pluginManagement {
    repositories {
        google()
        mavenCentral()
        gradlePluginPortal()
    }
}
dependencyResolutionManagement {
    repositories {
        google()
        mavenCentral()
    }
}
rootProject.name = "notibase-android"
include(":notibase")
