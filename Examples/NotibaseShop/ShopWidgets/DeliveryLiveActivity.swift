// Not type-checked by script/check-ios: the SDK slice it uses has no SwiftUI or WidgetKit (see
// this example's README). Kept small and plain on purpose.
import ActivityKit
import SwiftUI
import WidgetKit

@main
struct ShopWidgets: WidgetBundle {
    var body: some Widget {
        if #available(iOS 16.1, *) {
            DeliveryLiveActivity()
        }
    }
}

@available(iOS 16.1, *)
struct DeliveryLiveActivity: Widget {
    var body: some WidgetConfiguration {
        ActivityConfiguration(for: DeliveryAttributes.self) { context in
            // The Lock Screen.
            VStack(alignment: .leading) {
                Text("Order \(context.attributes.orderNumber)").font(.headline)
                Text(context.state.status)
                Text("\(context.state.minutesLeft) min").font(.caption)
            }
            .padding()
        } dynamicIsland: { context in
            DynamicIsland {
                DynamicIslandExpandedRegion(.leading) { Text(context.attributes.orderNumber) }
                DynamicIslandExpandedRegion(.trailing) { Text("\(context.state.minutesLeft) min") }
                DynamicIslandExpandedRegion(.bottom) { Text(context.state.status) }
            } compactLeading: {
                Image(systemName: "bag")
            } compactTrailing: {
                Text("\(context.state.minutesLeft)m")
            } minimal: {
                Image(systemName: "bag")
            }
        }
    }
}
