// The Notibase Android library: no dependencies (no Firebase, no androidx). The app's own
// FirebaseMessagingService forwards to dev.notibase.Notibase.
plugins {
    id("com.android.library")
}

android {
    namespace = "dev.notibase"
    compileSdk = 36

    defaultConfig {
        minSdk = 24
        consumerProguardFiles("consumer-rules.pro")
    }

    compileOptions {
        sourceCompatibility = JavaVersion.VERSION_17
        targetCompatibility = JavaVersion.VERSION_17
    }

    testOptions {
        // The JVM tests use only the pure-Java core and fakes; they never call android.*.
        unitTests.isReturnDefaultValues = false
    }
}

dependencies {
    testImplementation("junit:junit:4.13.2")
}

// The tests read the Swift core's golden fixtures, as script/test-android does.
tasks.withType<Test>().configureEach {
    systemProperty("notibase.fixtures", rootProject.file("../Tests/NotibaseCoreTests/Fixtures/render").absolutePath)
}
