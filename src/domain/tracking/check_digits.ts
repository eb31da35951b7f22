/**
 * Check-digit algorithms of the tracking-number formats (research/carriers.md section 1). Each
 * takes the characters before the check digit (already upper-cased, only A-Z and 0-9) and returns
 * the check digit they call for, 0 to 9.
 */

/** A digit's value, or a letter's value in UPS's mod 10: (ASCII code - 3) mod 10. */
function charValue(code: number): number {
  return code <= 57 ? code - 48 : (code - 3) % 10;
}

/**
 * GS1 mod 10 (SSCC, USPS IMpb and Delivery Confirmation, FedEx Ground): from the digit left of
 * the check digit going left, every other digit counts three times; the check digit tops the
 * sum up to a multiple of 10.
 */
export function gs1CheckDigit(digits: string): number {
  let sum = 0;
  for (let i = digits.length - 1, triple = true; i >= 0; i--, triple = !triple) {
    const value = digits.charCodeAt(i) - 48;
    sum += triple ? 3 * value : value;
  }
  return (10 - sum % 10) % 10;
}

/**
 * UPS mod 10 (1Z numbers and waybills): letters count as (ASCII - 3) mod 10, every second
 * character from the left (index 1, 3, ...) counts twice, products are not digit-summed.
 */
export function upsCheckDigit(serial: string): number {
  let sum = 0;
  for (let i = 0; i < serial.length; i++) {
    const value = charValue(serial.charCodeAt(i));
    sum += i % 2 === 1 ? 2 * value : value;
  }
  return (10 - sum % 10) % 10;
}

/**
 * FedEx Express mod 11: the weights 1, 3, 7 repeat from the digit left of the check digit going
 * left; the check digit is (sum mod 11) mod 10. Read right-aligned, this is both the 3,1,7,...
 * weighting of the 11-digit Express serial and the 1,7,3,... weighting of the 13-digit serial of
 * the 34-digit barcodes, so one function serves both.
 */
export function fedexExpressCheckDigit(digits: string): number {
  const weights = [1, 3, 7];
  let sum = 0;
  for (let i = digits.length - 1, w = 0; i >= 0; i--, w = (w + 1) % 3) {
    sum += (digits.charCodeAt(i) - 48) * weights[w];
  }
  return sum % 11 % 10;
}

const S10_WEIGHTS = [8, 6, 4, 2, 3, 5, 9, 7];

/** UPU S10 over the 8 serial digits: 11 - (weighted sum mod 11), where 10 -> 0 and 11 -> 5. */
export function s10CheckDigit(serial: string): number {
  let sum = 0;
  for (let i = 0; i < S10_WEIGHTS.length; i++) {
    sum += (serial.charCodeAt(i) - 48) * S10_WEIGHTS[i];
  }
  const check = 11 - sum % 11;
  return check === 10 ? 0 : check === 11 ? 5 : check;
}

/** DHL Express air waybill: the serial (9 or 10 digits, so exact in a double) modulo 7. */
export function mod7CheckDigit(serial: string): number {
  return Number(serial) % 7;
}
