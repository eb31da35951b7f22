// @ts-check
/** Starts the dashboard in the page shell the server sends. */
import { html } from "htm/preact";
import { render } from "preact";
import { App } from "./app.js";

const root = document.getElementById("app");
if (root) {
  root.textContent = "";
  render(html`<${App} />`, root);
}
