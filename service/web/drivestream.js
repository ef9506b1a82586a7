// Follows a drive's live stream (GET /v1/drives/{id}/stream): calls onEvent with each drive
// event's data ({version, type, actor, occurred_at, round, status, paused}) as it happens, so
// the hall's pages refetch only when the drive changed. The browser's EventSource reconnects
// by itself with Last-Event-ID after the stream's idle end; the server answers 204 once the
// drive is finished and everything was sent, which ends it.

export function followDrive(driveId, onEvent, after = null) {
  const query = after === null ? "" : `?after=${after}`;
  const source = new EventSource(`/v1/drives/${encodeURIComponent(driveId)}/stream${query}`);
  source.addEventListener("drive", (message) => {
    const data = JSON.parse(message.data);
    onEvent(data);
    if (data.status === "finished") source.close();
  });
  return source;
}
