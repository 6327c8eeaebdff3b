"""The API as a backend developer meets it: a Python client generated from /openapi.json by
openapi-python-client (PyPI), then used to create an app, register a device, send a message with
buttons, an image and a tags audience, and read its delivery log.

    python python_client.py --url http://127.0.0.1:PORT --admin-key nb_admin_… --out DIR
Exits 0 when generation was clean and every step answered as documented.
"""
import argparse
import importlib
import os
import subprocess
import sys
import time


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what, flush=True)
    if not condition:
        raise SystemExit(1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--admin-key", required=True)
    parser.add_argument("--out", required=True)
    arguments = parser.parse_args()

    generator = os.path.join(os.path.dirname(sys.executable), "openapi-python-client")
    package = os.path.join(arguments.out, "notibase_client")
    run = subprocess.run([generator, "generate", "--url", arguments.url + "/openapi.json", "--meta", "none", "--output-path", package, "--overwrite"],
                         capture_output=True, text=True)
    report = run.stdout + run.stderr
    check(run.returncode == 0, "the client is generated: " + report[-2000:].replace("\n", " | "))
    # Only the missing formatter may be warned about; a schema the generator cannot use is a failure.
    problems = [line for line in report.splitlines() if "Unable to" in line or "Invalid" in line or "duplicate" in line.lower()]
    check(not problems, "every schema is generated: " + " | ".join(problems))

    sys.path.insert(0, arguments.out)
    client_module = importlib.import_module("notibase_client")
    api = lambda name: importlib.import_module("notibase_client.api.default." + name)
    models = importlib.import_module("notibase_client.models")
    types = importlib.import_module("notibase_client.types")

    # Every field of a message survives generation (not only the title).
    fields = {attribute.name for attribute in models.Message.__attrs_attrs__}
    check({"title", "body", "buttons", "image", "url", "data"} <= fields, "Message has its fields: " + ", ".join(sorted(fields)))

    admin = client_module.AuthenticatedClient(base_url=arguments.url, token=arguments.admin_key)
    app = api("create_app").sync(client=admin, body=models.NewApp(name="Generated client", require_identity_verification=False))
    check(isinstance(app, models.App) and app.server_key.startswith("nb_server_"), f"an app is created: {app!r}"[:300])
    server = client_module.AuthenticatedClient(base_url=arguments.url, token=app.server_key)
    device_client = client_module.AuthenticatedClient(base_url=arguments.url, token=app.client_key)

    device = api("register_device").sync(client=device_client, body=models.DeviceRegistration(
        platform=models.DeviceRegistrationPlatform.IOS, token="ab" * 32, tags=["vip", "fr"], locale="fr-FR"))
    check(getattr(device, "id", None) is not None, f"a device is registered: {device!r}"[:300])

    message = models.Message(
        title="Your order shipped", body="Parcel 4242 arrives Thursday.", image="https://cdn.example/parcel.jpg",
        buttons=[models.Button(id="track", text="Track parcel", url="shop://orders/4242"),
                 models.Button(id="cancel", text="Cancel order", options=[models.ButtonOptionsType0Item.DESTRUCTIVE])])
    sent = api("send_message").sync(client=server, body=models.SendMessage(
        message=message, audience=models.AudienceType2(tags=models.Tags(all_of=["vip"]))))
    check(isinstance(sent, models.MessageStatus), f"the message is accepted: {sent!r}"[:400])
    check(sent.audience_size == 1, "the tags audience reaches the device")
    check([b.id for b in sent.message.buttons] == ["track", "cancel"] and sent.message.image == "https://cdn.example/parcel.jpg",
          "the answer carries the buttons and the image")
    check(isinstance(sent.audience, models.AudienceType2) and sent.audience.tags.all_of == ["vip"], f"the answer carries the tags audience: {sent.audience!r}")

    log = None
    for _ in range(100):
        log = api("message_deliveries").sync(message_id=sent.id, client=server)
        if isinstance(log, models.DeliveryList) and log.items and log.items[0].state.value == "sent":
            break
        time.sleep(0.1)
    check(isinstance(log, models.DeliveryList) and len(log.items) == 1, f"the delivery log is read: {log!r}"[:400])
    delivery = log.items[0]
    check(delivery.device_id == device.id and delivery.state.value == "sent", f"the delivery reached the provider: {delivery.state}")
    check([entry.event.value for entry in delivery.history] == ["queued", "sent"], "its history is queued, sent")
    print("python client test: passed", flush=True)


if __name__ == "__main__":
    main()
