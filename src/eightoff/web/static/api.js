// JSON over HTTP to the local server. Errors come back as {"error", "code"}.

export class ApiError extends Error {
  constructor(status, message, code) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export async function api(method, path, body) {
  const options = { method, headers: { Accept: "application/json" } };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch {
    throw new ApiError(
      0,
      "The table lost contact with its server. Start it again with “eightoff play”, then reload this page.",
      "offline",
    );
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const message = (data && (data.error || data.detail)) || `The server answered ${response.status} ${response.statusText}`;
    throw new ApiError(response.status, typeof message === "string" ? message : JSON.stringify(message), (data && data.code) || "http_error");
  }
  return data;
}
