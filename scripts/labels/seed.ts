/**
 * The fixed recipients the generated labels are addressed to (issue 28's evaluation). Chosen to be
 * hard: two Smiths and two Nguyens told apart by unit, accented and hyphenated names, short
 * names, rooms and suites as well as apartments.
 */
export interface SeedRecipient {
  id: string;
  firstName: string;
  lastName: string;
  unit: string | null;
  department: string | null;
}

const rows: Array<[string, string, string | null, string | null]> = [
  ['Jane', 'Smith', '4B', null],
  ['John', 'Smith', '12A', null],
  ['María', 'García', 'Room 204', 'Finance'],
  ['Kwame', 'Mensah', 'Unit 7', null],
  ['Li', 'Wei', '310', 'Research'],
  ['Anne', "O'Brien-Hart", '5C', null],
  ['Thanh', 'Nguyen', '2F', null],
  ['Minh', 'Nguyen', '9D', null],
  ['Oluwaseun', 'Adeyemi', '1101', null],
  ['Sofia', 'Rossi', '3A', 'Legal'],
  ['Priya', 'Raghunathan', 'Suite 400', 'Engineering'],
  ['Lukas', 'Müller', '6E', null],
  ['Chloe', 'Dubois', '8B', null],
  ['Mateo', 'Fernández', '15C', null],
  ['Aiko', 'Tanaka', 'Room 118', 'Marketing'],
  ['Grace', 'Okafor', '21', null],
  ['Ethan', 'Brooks', '7A', null],
  ['Olivia', 'Bennett', '10D', null],
  ['Noah', 'Kowalski', '4C', null],
  ['Emma', 'Lindqvist', '11B', null],
  ['Daniel', 'Cohen', 'Room 305', 'Admissions'],
  ['Fatima', 'Haddad', '2A', null],
  ['Samuel', 'Osei', '14F', null],
  ['Hannah', 'Schneider', '9A', null],
  ['Rahul', 'Mehta', 'Suite 210', 'Sales'],
  ['Isabella', 'Costa', '5F', null],
  ['William', 'Park', '16B', null],
  ['Zoe', 'Anderson', '3D', null],
  ['Ahmed', 'Farouk', '12C', null],
  ['Yuki', 'Sato', 'Room 402', 'IT'],
];

export const SEED_RECIPIENTS: SeedRecipient[] = rows.map(([firstName, lastName, unit, department], i) => ({
  id: `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`,
  firstName,
  lastName,
  unit,
  department,
}));
