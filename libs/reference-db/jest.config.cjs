module.exports = { displayName: 'reference-db', preset: '../../jest.preset.cjs' };
