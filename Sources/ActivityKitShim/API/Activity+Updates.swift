public import Foundation

extension Activity {
    /// New activities, as they start.
    public struct ActivityUpdates: AsyncSequence {
        public typealias Element = Activity<Attributes>
        let device: SimulatedActivityDevice
        let typeName: String

        public func makeAsyncIterator() -> Activity<Attributes>.ActivityUpdates.Iterator {
            Iterator(device: device, cursor: StreamCursor(device.activityStarts(ofType: typeName)))
        }

        public struct Iterator: AsyncIteratorProtocol {
            public typealias Element = Activity<Attributes>.ActivityUpdates.Element
            let device: SimulatedActivityDevice
            let cursor: StreamCursor<String>

            public func next() async -> Activity<Attributes>.ActivityUpdates.Element? {
                while let id = await cursor.next() {
                    if let entry = device.entry(id), let activity = Activity.make(entry, on: device) { return activity }
                }
                return nil
            }
        }
        public typealias AsyncIterator = Activity<Attributes>.ActivityUpdates.Iterator
    }

    /// Changes of an activity's state.
    public struct ActivityStateUpdates: AsyncSequence {
        public typealias Element = ActivityState
        let subscribe: @Sendable () -> AsyncStream<ActivityState>

        public func makeAsyncIterator() -> Activity<Attributes>.ActivityStateUpdates.Iterator {
            Iterator(cursor: StreamCursor(subscribe()))
        }

        public struct Iterator: AsyncIteratorProtocol {
            public typealias Element = Activity<Attributes>.ActivityStateUpdates.Element
            let cursor: StreamCursor<ActivityState>

            public func next() async -> Activity<Attributes>.ActivityStateUpdates.Element? {
                await cursor.next()
            }
        }
        public typealias AsyncIterator = Activity<Attributes>.ActivityStateUpdates.Iterator
    }

    /// Push tokens (an activity's update tokens, or a type's push-to-start tokens).
    public struct PushTokenUpdates: AsyncSequence {
        public typealias Element = Data
        let subscribe: @Sendable () -> AsyncStream<Data>

        public func makeAsyncIterator() -> Activity<Attributes>.PushTokenUpdates.Iterator {
            Iterator(cursor: StreamCursor(subscribe()))
        }

        public struct Iterator: AsyncIteratorProtocol {
            public typealias Element = Activity<Attributes>.PushTokenUpdates.Element
            let cursor: StreamCursor<Data>

            public func next() async -> Activity<Attributes>.PushTokenUpdates.Element? {
                await cursor.next()
            }
        }
        public typealias AsyncIterator = Activity<Attributes>.PushTokenUpdates.Iterator
    }
}
