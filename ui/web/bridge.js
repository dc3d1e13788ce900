/* The page's side of the QWebChannel bridge: one incoming signal, a few JSON slots. */
"use strict";

(function (PD) {
  let bridge = null;
  const pending = [];

  /** Call a Python slot with one JSON object (queued until the channel is up). */
  PD.call = function (slot, payload) {
    const text = JSON.stringify(payload || {});
    if (!bridge) {
      pending.push([slot, text]);
      return;
    }
    if (typeof bridge[slot] === "function") bridge[slot](text);
  };

  function receive(text) {
    let message = null;
    try {
      message = JSON.parse(text);
    } catch (err) {
      console.error("bridge: unreadable event", err);
      return;
    }
    if (message && typeof message === "object" && typeof message.kind === "string") {
      PD.enqueue(message);
    }
  }

  function connect() {
    if (typeof QWebChannel === "undefined" || typeof qt === "undefined") {
      console.error("bridge: QWebChannel is not available");
      return;
    }
    new QWebChannel(qt.webChannelTransport, function (channel) {
      bridge = channel.objects.phasedesk;
      Object.defineProperty(PD, "bridge", { value: bridge, writable: false });
      bridge.event.connect(receive);
      bridge.ready("{}");
      while (pending.length) {
        const [slot, text] = pending.shift();
        bridge[slot](text);
      }
    });
  }

  PD.connectBridge = connect;
})(window.PD);
