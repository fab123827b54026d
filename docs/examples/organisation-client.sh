#!/bin/sh
# The same calls with curl (docs/ORGANISATIONS.md). A webhook receiver is a server of your own: see
# organisation-client.mjs for one that verifies the signature.
#   PORTAL_URL=https://coi.example.edu API_KEY=coi_… sh docs/examples/organisation-client.sh
set -eu
auth="authorization: Bearer $API_KEY"
# 1. File a clinician's certificate request (scope requests:write)…
id=$(curl -fsS -H "$auth" -H 'content-type: application/json' "$PORTAL_URL/api/v1/requests" -d '{
  "requestType": "certificate", "certificateType": "Clinician",
  "certificateHolder": "Mercy Hospital", "certificateHolderAddress": "1 Main St, Portland, OR 97201",
  "lastName": "Nguyen", "firstName": "Ava", "facilityName": "Mercy Hospital",
  "dateFrom": "2025-01-01T11:00:00.000Z", "dateTo": "2025-06-30T11:00:00.000Z"}' | sed -n 's/.*"id":\([0-9]*\).*/\1/p')
# 2. …and submit it.
curl -fsS -X PATCH -H "$auth" -H 'content-type: application/json' "$PORTAL_URL/api/v1/requests/$id" -d '{"status":"Submitted"}'
echo
# 3. Once the webhook "letter.issued" arrived (or later): its letters and their codes (scope letters:read)…
curl -fsS -H "$auth" "$PORTAL_URL/api/v1/requests/$id/certificates"
echo
# 4. …the download (the webhook's data.letter.downloadUrl), and the public check of a code (no key):
#   curl -fsS -H "$auth" -o letter.pdf "<downloadUrl>"
#   curl -fsS "$PORTAL_URL/api/v1/verify/<code>"
