plugins {
    id("com.android.library") version "8.11.0" apply false
}
